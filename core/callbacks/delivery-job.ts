import { z } from "zod";
import type { Executor } from "../db/client.js";
import { enqueueJob } from "../db/statements/add-job.js";

// One `deliver_callback` job is one attempt. `retries` says whether a failure schedules the next attempt of
// SPEC.md's series (true for the series that starts when the task ends, false for a redelivery on request).
// `deferrals` counts how often the attempt found every worker slot of its tenant taken and was put off
// (core/tasks/tenant-slots.ts).
const deliveryJobSchema = z.object({
  task_id: z.string().min(1),
  attempt: z.number().int().positive(),
  retries: z.boolean(),
  deferrals: z.number().int().min(0).optional(),
});

export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

export function parseDeliveryJob(payload: unknown): DeliveryJob {
  return deliveryJobSchema.parse(payload);
}

// graphile-worker's own retries only cover this code failing (say, the database away for a moment); a receiver's
// failure is an outcome, recorded and rescheduled on SPEC.md's schedule by the job itself.
const JOB_MAX_ATTEMPTS = 3;

export async function enqueueDeliveryAttempt(tx: Executor, job: DeliveryJob, runAt?: Date, priority?: number): Promise<void> {
  await enqueueJob(tx, "deliver_callback", { ...job }, { maxAttempts: JOB_MAX_ATTEMPTS, ...(runAt ? { runAt } : {}), ...(priority ? { priority } : {}) });
}
