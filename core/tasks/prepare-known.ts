import type { Capability, PrepareContext, Prepared } from "../capabilities/types.js";
import type { Db } from "../db/client.js";
import type { KnownInput } from "../selection/input-limits.js";
import { findVoiceForTenant } from "../voices/lookup.js";
import { readLifecycle, type LifecycleRuntime } from "../retirements/lifecycle.js";

// What preparing a request asks of the service besides the request: which vendor families are live, the models'
// retirements, and the tenant's voices.
export interface SelectionRuntime extends Pick<PrepareContext, "isFamilyLive">, LifecycleRuntime {
  db: Db;
}

// The capability's own selection and price for a request, given what is known of its media inputs: at admission
// the inputs in hand (data URIs, artifacts), in the worker every input once downloaded (core/tasks/reselection.ts).
// One rule for both, so a task chosen again in the worker gets the model and price admission would have given it.
export async function prepareKnowing(
  core: SelectionRuntime,
  capability: Capability,
  input: Record<string, unknown>,
  tenantId: string,
  media: readonly KnownInput[],
): Promise<Prepared> {
  return capability.prepare(input, {
    tenantId,
    isFamilyLive: core.isFamilyLive,
    lifecycle: await readLifecycle(core),
    findVoice: (owner, voiceId) => findVoiceForTenant(core.db, owner, voiceId),
    known: { body: input, media },
  });
}
