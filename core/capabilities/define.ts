import type { z } from "zod";
import type { CommonCreateInput } from "../contracts/common-create.js";
import type { Capability } from "./types.js";

// An entry of the capability table with its literal id and the input its schema infers, which an annotation
// `Capability<…>` would widen to a string and a hand-written type: the table's CapabilityId union and the
// adapters' typed requests are derived from what this keeps. The input type is inferred from the schema alone: a
// rule written for a wider input (the music rules) must not widen it.
export function defineCapability<const Id extends string, I extends CommonCreateInput>(
  capability: Capability<NoInfer<I>, Id> & { inputSchema: z.ZodType<I> },
): Capability<I, Id> {
  return capability;
}
