import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { redactForLog } from "../observability/log-redaction.js";
import type { Logger } from "../observability/logger.js";
import type { ServiceMetrics } from "../observability/service-metrics.js";
import { findTaskIdentity, type TaskRow } from "./repository.js";

// The moments of a task's life an operator counts and reads about: admitted, finished (and each callback attempt,
// core/callbacks/deliver.ts). Each log line names the task, its tenant and the request that admitted it (the id a
// client quotes to support).

// The parts of the runtime these moments are counted and written with.
export interface TaskEventRecorder {
  metrics: ServiceMetrics;
  log: Logger;
}

export function taskLogFields(task: Pick<TaskRow, "id" | "tenantId" | "requestId">) {
  return { task_id: task.id, tenant_id: task.tenantId, request_id: task.requestId };
}

// The fields a worker's lines about one job carry, looked up from the task the job is about.
export async function taskLogContext(core: { db: Db }, taskId: string): Promise<Record<string, string>> {
  const task = await findTaskIdentity(core.db, taskId);
  return task ? taskLogFields(task) : { task_id: taskId };
}

export function recordAdmission(core: TaskEventRecorder & { config: Pick<Config, "logPrompts"> }, task: TaskRow): void {
  core.metrics.tasksAdmitted.inc({ capability: task.capability, model: task.resolvedModel });
  // Redacting the input walks all of it: not on every admission when the line is not written.
  if (!core.log.isLevelEnabled("info")) return;
  core.log.info(
    {
      ...taskLogFields(task),
      capability: task.capability,
      model: task.resolvedModel,
      held_micro: task.heldMicro.toString(),
      input: redactForLog(task.input, { logPrompts: core.config.logPrompts }),
    },
    "task admitted",
  );
}

// An admission refused at a spend limit is counted by the limit's scope and period (an operator's alert).
export function recordRefusal(core: TaskEventRecorder, error: { details?: Record<string, unknown> }): void {
  const limit = error.details?.spend_limit as { scope: string; owner: string; period: string } | undefined;
  if (!limit) return;
  core.metrics.spendLimitsReached.inc({ scope: limit.scope, period: limit.period });
  core.log.info({ scope: limit.scope, owner: limit.owner, period: limit.period }, "spend limit reached");
}

export function recordFinish(core: TaskEventRecorder, task: TaskRow): void {
  const error = task.error as { code?: string; message?: string } | null;
  core.metrics.tasksFinished.inc({ capability: task.capability, model: task.resolvedModel, status: task.status, error_code: error?.code ?? "" });
  const seconds = task.completedAt ? (task.completedAt.getTime() - task.createdAt.getTime()) / 1000 : null;
  const fields = { ...taskLogFields(task), capability: task.capability, model: task.resolvedModel, status: task.status, seconds };
  if (error) core.log.info({ ...fields, error_code: error.code, error_message: error.message }, "task finished");
  else core.log.info(fields, "task finished");
}
