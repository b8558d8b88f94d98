import type { ModelCard } from "./types";

// Credits as people read them: the API's six-decimal strings without their trailing zeros ("0.060000" → "0.06"),
// and a model card's price lines in words.

export function credits(value: string): string {
  return value.replace(/(\.\d\d\d*?)0+$/, "$1");
}

type Price = ModelCard["prices"][number];

const per = (price: Price) => `${price.per === "1" ? "" : `${price.per} `}${price.unit}${price.per === "1" ? "" : "s"}`;

export function priceLine(price: Price): string {
  const when = Object.entries(price.when ?? {})
    .map(([field, value]) => `${field.replace(/_/g, " ")} ${Array.isArray(value) ? value.join(" or ") : String(value)}`)
    .join(", ");
  return `${credits(price.price_credits)} credits per ${per(price)}${when ? ` (${when})` : ""}`;
}

// The cheapest line, for a list of models: "from 0.06 credits per second".
export function priceSummary(prices: Price[]): string {
  const cheapest = [...prices].sort((a, b) => Number(a.price_credits) - Number(b.price_credits))[0];
  if (!cheapest) return "no price";
  return `${prices.length > 1 ? "from " : ""}${credits(cheapest.price_credits)} credits per ${per(cheapest)}`;
}
