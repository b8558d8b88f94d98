import { Logger as GraphileLogger } from "graphile-worker";
import type { Logger } from "../core/index.js";

// graphile-worker's levels (a const enum of these strings) as pino's.
const LEVELS: Record<string, "error" | "warn" | "info" | "debug"> = {
  error: "error",
  warning: "warn",
  info: "info",
  debug: "debug",
};

// graphile-worker's lines through the process's JSON logger. Its lines about one job ("Completed task 42 …",
// "Failed task 42 …") name the job, not the task; the job wrapper logs those moments with the task, tenant and
// request, so graphile's own versions go to debug.
export function graphileLogger(log: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    const fields: Record<string, unknown> = { component: "graphile-worker" };
    if (scope.workerId) fields.graphile_worker_id = scope.workerId;
    if (scope.taskIdentifier) fields.job = scope.taskIdentifier;
    if (scope.jobId !== undefined) fields.job_id = scope.jobId;
    if (meta?.error instanceof Error) fields.err = meta.error;
    log[scope.jobId !== undefined ? "debug" : (LEVELS[level] ?? "info")](fields, message);
  });
}
