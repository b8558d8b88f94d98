import type { Clock } from "../clock.js";
import type { RetirementCache } from "./cache.js";
import type { ModelLifecycle } from "./retirement.js";

export interface LifecycleRuntime {
  clock: Clock;
  retirements: RetirementCache;
}

// The retirements in force and the moment they are compared with, read once for one request.
export async function readLifecycle(core: LifecycleRuntime): Promise<ModelLifecycle> {
  return { schedule: await core.retirements.current(), now: core.clock() };
}
