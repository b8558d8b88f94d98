import type { VendorFamily } from "../config.js";
import type { Selection } from "../selection/select.js";
import type { Prepared, Quote } from "./types.js";

// What admission records of a selection: the model asked for, the model used, why, and the price.
export function preparedFrom(
  selection: Selection<{ id: string; family: VendorFamily }>,
  quote: Quote,
  reason: string | null = selection.reason,
): Prepared {
  return {
    requestedModel: selection.requested,
    resolvedModel: selection.model.id,
    family: selection.model.family,
    selectionReason: reason,
    quote,
    deprecation: selection.deprecation,
  };
}
