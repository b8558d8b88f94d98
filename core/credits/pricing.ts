import { ceilDiv } from "./money.js";

// A catalog price: `microPerUnit` micro-credits for every `per` units of `meter`. Catalog cards show these
// same entries, so what a rejection or a card quotes is what billing charges.
export interface Price {
  meter: string;
  unit: string;
  microPerUnit: bigint;
  per: bigint;
  // Optional qualifier, e.g. a resolution tier the price applies to.
  when?: Record<string, string>;
}

// One line of a quote or a bill: a quantity of a meter at its price.
export interface UsageLine {
  meter: string;
  quantity: bigint;
  unit: string;
  amountMicro: bigint;
}

export function priceLine(price: Price, quantity: bigint): UsageLine {
  return {
    meter: price.meter,
    quantity,
    unit: price.unit,
    amountMicro: ceilDiv(quantity * price.microPerUnit, price.per),
  };
}

export function findPrice(prices: readonly Price[], meter: string, when: Record<string, string> = {}): Price {
  const match =
    prices.find((p) => p.meter === meter && p.when && Object.entries(p.when).every(([k, v]) => when[k] === v)) ??
    prices.find((p) => p.meter === meter && !p.when);
  if (!match) throw new Error(`no ${meter} price for ${JSON.stringify(when)}`);
  return match;
}
