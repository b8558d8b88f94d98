import type { ModelCard } from "./types";

// What the models in play allow for each field of a request, read from their catalog cards' constraints (the data
// selection validates with): `durations` offers `duration`, `canvas_tiers` offers `canvas.tier`,
// `supported_languages` offers `language`, `detail_levels` offers `detail`; a boolean constraint says whether the
// model takes the field at all (`seed: false`), as an empty list does (`enhance_prompt: []`); a list of booleans
// which values it takes (`watermark: [false]`);
// `{min, max}` bounds a number; a table of lists keyed by another field's value (`sample_rates` by `format`) offers
// the list of the value that field has; a capability's own bounds replace the rest for its field (below). With
// `auto`, what any live model allows, since auto picks one that fits.

export type Offered = string | number | boolean;

export interface FieldOffer {
  values?: Offered[];
  // The model's default for the field (`default_duration`), when one model is in play.
  modelDefault?: Offered;
  // No model in play takes the field.
  unsupported?: boolean;
  min?: number;
  max?: number;
}

// A field's key: its path joined with "_" (`canvas_tier`).
export type Offers = Map<string, FieldOffer>;

function fieldOf(constraint: string): string {
  return constraint.replace(/^supported_/, "").replace(/s$/, "").replace(/_level$/, "");
}

const isOffered = (value: unknown): value is Offered => ["string", "number", "boolean"].includes(typeof value);

// Values read in order of size when each is a number or starts with one (480p, 720p, 1080p; 1K, 2K, 4K; 5, 10): a
// card or a union of cards may list them in any order. Words (low, medium, high) keep the order the card gives.
function sorted(values: Offered[]): Offered[] {
  if (!values.every((v) => typeof v === "number" || (typeof v === "string" && /^\d/.test(v)))) return values;
  return [...values].sort((a, b) => String(a).localeCompare(String(b), "en", { numeric: true }));
}

function merge(offers: Offers, field: string, next: FieldOffer) {
  const current = offers.get(field);
  if (!current) return void offers.set(field, next);
  const union = current.values || next.values ? [...new Set([...(current.values ?? []), ...(next.values ?? [])])] : undefined;
  offers.set(field, {
    values: union && sorted(union),
    unsupported: current.unsupported === true && next.unsupported === true ? true : undefined,
    min: current.min === undefined || next.min === undefined ? undefined : Math.min(current.min, next.min),
    max: current.max === undefined || next.max === undefined ? undefined : Math.max(current.max, next.max),
  });
}

// Integer bounds a capability of its own sets (`extend_min_duration` and `extend_max_duration` for video extend's
// `duration`) replace what the model's other capabilities allow for the field, and are offered value by value.
function scopedBounds(card: ModelCard, scope: string, offers: Offers) {
  const bounds = new Map<string, { min?: number; max?: number }>();
  for (const [key, value] of Object.entries(card.constraints)) {
    const match = new RegExp(`^${scope}_(min|max)_(.+)$`).exec(key);
    if (!match || typeof value !== "number") continue;
    bounds.set(match[2]!, { ...bounds.get(match[2]!), [match[1]!]: value });
  }
  for (const [field, { min, max }] of bounds) {
    if (min === undefined || max === undefined || !Number.isInteger(min) || !Number.isInteger(max) || max < min) continue;
    offers.set(field, { min, max, values: Array.from({ length: max - min + 1 }, (_, i) => min + i) });
  }
}

function offersOf(card: ModelCard, context: Record<string, unknown>, scope: string): Offers {
  const offers: Offers = new Map();
  const defaults = new Map<string, Offered>();
  for (const [key, value] of Object.entries(card.constraints)) {
    if (key.startsWith(`${scope}_`)) continue;
    if (key.startsWith("default_")) {
      if (isOffered(value)) defaults.set(key.slice("default_".length), value);
      continue;
    }
    const field = fieldOf(key);
    // A boolean names its field whole; an empty list is a field the model takes no value of.
    if (typeof value === "boolean") offers.set(key, value ? {} : { unsupported: true });
    else if (Array.isArray(value) && value.length === 0) offers.set(field, { unsupported: true });
    else if (Array.isArray(value) && value.every(isOffered)) offers.set(field, { values: sorted(value) });
    else if (value && typeof value === "object" && !Array.isArray(value)) {
      const table = value as Record<string, unknown>;
      if (typeof table.min === "number" && typeof table.max === "number") offers.set(field, { min: table.min, max: table.max });
      const chosen = Object.values(context).find((v) => isOffered(v) && Array.isArray(table[String(v)]));
      const list = chosen === undefined ? undefined : (table[String(chosen)] as unknown[]);
      if (list && list.every(isOffered)) offers.set(field, { values: sorted(list) });
    }
  }
  for (const [field, value] of defaults) offers.set(field, { ...offers.get(field), modelDefault: value });
  scopedBounds(card, scope, offers);
  return offers;
}

// `capability`: its last word scopes constraints of its own (`extend` for video_extend). `context`: the request's
// top-level values with the schema's defaults beneath them.
export function modelOffers(cards: ModelCard[], capability: string, context: Record<string, unknown>): Offers {
  const scope = capability.split("_").pop() ?? capability;
  if (cards.length === 1) return offersOf(cards[0]!, context, scope);
  const offers: Offers = new Map();
  for (const card of cards) for (const [field, offer] of offersOf(card, context, scope)) merge(offers, field, { ...offer, modelDefault: undefined });
  return offers;
}
