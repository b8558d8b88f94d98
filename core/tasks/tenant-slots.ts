import { sql } from "drizzle-orm";
import type { Executor } from "../db/client.js";

// A tenant's share of the workers. Every job that holds a worker slot for long on a tenant's behalf — a task's
// execution (media resolution, then the vendor submission) and each callback delivery — first takes one of the
// tenant's slots, numbered 1 to `config.tenantWorkerSlots`, recorded on the task row (`tenant_slot`), whose
// unique index lets a slot have one holder however many workers start the tenant's work at once. A job that finds
// every slot of its tenant taken does not wait in its worker slot: it enqueues itself again a little later
// (deferralDelayMs) and ends, so one tenant's backlog holds at most its own slots and another tenant's new work
// finds the rest free. Polls hold a slot for one HTTP call and take none. Deliveries use the lower half of the
// slots only, and executions take the highest free slot first: a tenant whose receiver is slow keeps at least half
// of its slots for its executions. docs/decisions.md says why this and not graphile-worker's named queues.

// How long a slot stays taken when its job never gives it back (its worker died and the job was never run again,
// or the job failed for good): the sweep (core/tasks/sweep.ts) frees it then. Longer than any execution or delivery
// takes (media resolution is bounded by MEDIA_FETCH_TIMEOUT_MS per input, a delivery by CALLBACK_TIMEOUT_MS).
export const SLOT_LEASE_MS = 15 * 60 * 1000;

// The changes that give a task's slot back, made by the same statement that ends the job's work on it.
export const SLOT_RELEASED = { tenantSlot: null, tenantSlotUntil: null } as const;

// A deferred job looks again after 1 s, then 2, 4 and 8 s at most (±20 %, so a tenant's deferred jobs do not
// come back together): a tenant's waiting work costs the workers one row of a start statement per task every few
// seconds, while its slots refill within a second of freeing. It comes back at a lower priority than new jobs, so
// another tenant's new work never queues behind a flooding tenant's waiting work looking again.
export const DEFERRED_PRIORITY = 1;
const FIRST_DEFERRAL_MS = 1000;
const LONGEST_DEFERRAL_MS = 8000;

export function deferralDelayMs(deferrals: number, random: () => number = Math.random): number {
  const base = Math.min(LONGEST_DEFERRAL_MS, FIRST_DEFERRAL_MS * 2 ** Math.min(deferrals, 16));
  return Math.round(base * (0.8 + 0.4 * random()));
}

// Two statements that gave the same free slot of a tenant to two tasks at once: the unique index fails the second
// (or the two deadlock on rows they both touch); run again, it sees the first one's slots taken.
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

// The slot of a terminal task's tenant for one callback delivery, among the lower half of its `slots`: true when
// the task holds one (taken now, or still held by this delivery's job from before its worker died), false when
// every one of those is taken.
export async function takeDeliverySlot(db: Executor, taskId: string, slots: number, now: Date): Promise<boolean> {
  const until = new Date(now.getTime() + SLOT_LEASE_MS).toISOString();
  const deliverySlots = Math.ceil(slots / 2);
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

// Gives a task's slot back outside of the statements that end its work (a job failing unexpectedly, a delivery
// that records nothing).
export async function releaseSlot(db: Executor, taskId: string): Promise<void> {
  await db.execute(sql`update tasks set tenant_slot = null, tenant_slot_until = null where id = ${taskId} and tenant_slot is not null`);
}
