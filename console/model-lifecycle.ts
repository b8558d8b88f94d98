import type { ModelCard } from "./types";

// What a model card says of the model's retirement, in words for people: the badge beside its description, the
// sentence under it, and the note in the picker's option. Dates are shown as UTC days (and times, when not 00:00).

function when(iso: string): string {
  const [day, time] = iso.split("T");
  const clock = (time ?? "").slice(0, 5);
  return clock === "00:00" ? `${day}` : `${day} ${clock} UTC`;
}

export function lifecycleBadge(card: ModelCard): { text: string; className: string } {
  if (card.lifecycle === "retired") return { text: "retired", className: "offline" };
  if (card.lifecycle === "deprecated") return { text: "deprecated", className: "deprecated" };
  return card.live ? { text: "live", className: "live" } : { text: "not live here", className: "offline" };
}

// Null when no retirement is set.
export function retirementSentence(card: ModelCard): string | null {
  if (card.retires_at === null || card.deprecated_at === null) return null;
  const instead = card.replacement ? ` Use ${card.replacement} instead.` : "";
  if (card.lifecycle === "retired") return `Retired on ${when(card.retires_at)}: requests naming it are refused.${instead}`;
  if (card.lifecycle === "deprecated") {
    return `Deprecated since ${when(card.deprecated_at)}; retires on ${when(card.retires_at)}, when requests naming it start being refused; auto picks it only when no other model fits.${instead}`;
  }
  return `Deprecated from ${when(card.deprecated_at)}; retires on ${when(card.retires_at)}.${instead}`;
}

export function optionNote(card: ModelCard): string {
  if (card.lifecycle === "retired") return "retired";
  if (card.lifecycle === "deprecated" && card.retires_at) return `deprecated, retires ${when(card.retires_at)}`;
  return card.live ? "live" : "not live here";
}
