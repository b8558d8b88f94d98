import { sql } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import type { StartPolicy } from "../db/statements/start-tasks.js";

// The workers a tenant holds. A job that holds a worker for long on a tenant's behalf marks the task it works on
// (`tenant_slot_until`, a lease): a task's execution (media resolution, then the vendor submission), from its start
// (core/db/statements/start-tasks.ts) until it hands the task to its polls, retries later or ends it; and each
// callback delivery. The start statement counts them per tenant: a free worker takes the waiting task of the
// tenant holding the fewest, so a tenant alone uses every worker and several share them evenly, with no job
// waiting on a timer while a worker is free. Polls hold a worker for one HTTP call and mark nothing.
//
// Callback deliveries are capped besides: a tenant's deliveries take numbered slots (`tenant_slot`), at most
// `config.tenantDeliverySlots` at once across all workers, whose unique index lets a slot have one holder however
// many workers deliver at once. A delivery that finds them all taken enqueues itself again a little later
// (deferralDelayMs) and ends, so a receiver that answers slowly holds only that many workers of its tenant's.
// docs/decisions.md says why this and not graphile-worker's named queues.

// How long a slot stays taken when its job never gives it back (its worker died and the job was never run again,
// or the job failed for good): the sweep (core/tasks/sweep.ts) frees it then. Longer than any execution or delivery
// takes (media resolution is bounded by MEDIA_FETCH_TIMEOUT_MS per input, a delivery by CALLBACK_TIMEOUT_MS).
const SLOT_LEASE_MS = 15 * 60 * 1000;

// The changes that give a task's slot back, made by the same statement that ends the job's work on it.
export const SLOT_RELEASED = { tenantSlot: null, tenantSlotUntil: null } as const;

// A deferred delivery looks again after 1 s, then 2, 4 and 8 s at most (±20 %, so a tenant's deferred deliveries
// do not come back together), while its slots refill within a second of freeing. It comes back at a lower priority
// than new jobs, so other work never queues behind a slow receiver's deliveries looking again.
export const DEFERRED_PRIORITY = 1;

export function deferralDelayMs(deferrals: number, random: () => number = Math.random): number {
  return doublingDelayMs(deferrals, 1000, 8000, random);
}

// A parked execute job (every waiting task is held back by an operator's running limit) asks again after 250 ms,
// then 500 ms, then every second (±20 %): a limit's room is taken within about a second of a running task ending,
// and a thousand tasks behind one limit cost the workers a start statement row each a second. Behind new jobs,
// which take the turns of work that may start now.
const PARKED_PRIORITY = 1;

export function parkedDelayMs(parkings: number, random: () => number = Math.random): number {
  return doublingDelayMs(parkings, 250, 1000, random);
}

// The above as the start statement (core/db/statements/start-tasks.ts) takes them: a started task's lease, and a
// parked job's priority and delay.
export const START_POLICY: StartPolicy = { leaseMs: SLOT_LEASE_MS, parkedPriority: PARKED_PRIORITY, parkedDelayMs };

// `firstMs` doubled for each earlier time, up to `longestMs`, ±20 %.
function doublingDelayMs(times: number, firstMs: number, longestMs: number, random: () => number): number {
  const base = Math.min(longestMs, firstMs * 2 ** Math.min(times, 16));
  return Math.round(base * (0.8 + 0.4 * random()));
}

// Two statements that gave the same free delivery slot of a tenant to two tasks at once: the unique index fails the
// second (or two statements deadlock on rows they both touch); run again, it sees the first one's slots taken.
const SLOT_RACES = new Set(["23505", "40P01"]);
const MAX_SLOT_RACES = 5;

export async function retryingSlotRaces<T>(statement: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      if (attempt >= MAX_SLOT_RACES || !isSlotRace(error)) throw error;
    }
  }
}

function isSlotRace(error: unknown): boolean {
  // drizzle wraps the driver's error; the innermost cause carries Postgres' SQLSTATE.
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && SLOT_RACES.has(code)) return true;
  }
  return false;
}

// One of the `deliverySlots` slots of a terminal task's tenant for one callback delivery: true when the task holds
// one (taken now, or still held by this delivery's job from before its worker died), false when every one is taken.
export async function takeDeliverySlot(db: Executor, taskId: string, deliverySlots: number, now: Date): Promise<boolean> {
  const until = new Date(now.getTime() + SLOT_LEASE_MS).toISOString();
  return retryingSlotRaces(async () => {
    const rows = await db.execute<{ id: string }>(sql`
      with task as (
        select id, tenant_id, tenant_slot from tasks where id = ${taskId}
      ), free as (
        select s.slot from task, generate_series(1, ${deliverySlots}::int) as s(slot)
        where task.tenant_slot is null
          and not exists (select 1 from tasks as holder where holder.tenant_id = task.tenant_id and holder.tenant_slot = s.slot)
        order by s.slot limit 1
      )
      update tasks set tenant_slot = coalesce(tasks.tenant_slot, (select slot from free)), tenant_slot_until = ${until}::timestamptz
      where tasks.id = ${taskId} and (tasks.tenant_slot is not null or exists (select 1 from free))
      returning tasks.id`);
    return rows.length > 0;
  });
}

// Gives the worker a task holds back outside of the statements that end its work (a job failing unexpectedly, a
// delivery that records nothing).
export async function releaseSlot(db: Executor, taskId: string): Promise<void> {
  await db.execute(sql`update tasks set tenant_slot = null, tenant_slot_until = null where id = ${taskId} and tenant_slot_until is not null`);
}
