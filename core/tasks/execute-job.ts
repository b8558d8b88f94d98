import { z } from "zod";

// The payload of an `execute_task` job: the task, and how many times a job of this task was deferred because its
// tenant's slots were all taken (core/tasks/tenant-slots.ts), which spaces the next look further out. The
// admission's jobs carry the task alone.
const executeJobSchema = z.object({
  task_id: z.string().min(1),
  deferrals: z.number().int().min(0).default(0),
});

export type ExecuteJobPayload = z.infer<typeof executeJobSchema>;

export function parseExecuteJob(payload: unknown): ExecuteJobPayload {
  return executeJobSchema.parse(payload);
}
