import { z } from "zod";
import { invalidRequest, zodFailures } from "../errors/index.js";
import { cancelTask, type CancelResult, type CancelRuntime } from "./cancel.js";

// The body of POST /v1/tasks/{task_id}/cancel, optional, and svc.tasks.cancel's argument beside the task id: the
// one rule for a cancel's reason.
export const cancelTaskBodySchema = z.object({ reason: z.string().max(1000).optional().describe("Why, kept with the task.") }).strict();

export async function cancelTaskRequest(core: CancelRuntime, tenantId: string, taskId: string, body: unknown): Promise<CancelResult> {
  const parsed = cancelTaskBodySchema.optional().safeParse(body);
  if (!parsed.success) throw invalidRequest(zodFailures(parsed.error));
  return cancelTask(core, tenantId, taskId, parsed.data?.reason);
}
