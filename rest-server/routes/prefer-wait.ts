import type { FastifyReply, FastifyRequest } from "fastify";
import { MAX_WAIT_SECONDS, waitForTask, type Core } from "../../core/index.js";
import { principalOf } from "../plugins/auth.js";

type Task = Awaited<ReturnType<typeof waitForTask>>;

const TERMINAL = new Set(["succeeded", "failed", "canceled"]);

// `Prefer: wait=N` (RFC 7240, as Replicate reads it): N whole seconds, at most MAX_WAIT_SECONDS (a larger N is
// applied as the maximum). A preference is a hint: a malformed one is ignored, as RFC 7240 asks.
export function preferredWaitSeconds(request: FastifyRequest): number | undefined {
  const header = request.headers.prefer;
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  for (const preference of values.flatMap((value) => value.split(","))) {
    const match = /^\s*wait\s*=\s*"?(\d{1,6})"?\s*$/i.exec(preference.split(";")[0] ?? "");
    if (match) return Math.min(Number(match[1]), MAX_WAIT_SECONDS);
  }
  return undefined;
}

// The task as it stands, or, when the request asked to wait, once it has ended or the wait is over, whichever
// comes first; Preference-Applied says the wait was honoured. A client that hangs up ends the wait.
export async function afterPreferredWait(core: Core, request: FastifyRequest, reply: FastifyReply, task: Task): Promise<Task> {
  const seconds = preferredWaitSeconds(request);
  if (seconds === undefined) return task;
  reply.header("Preference-Applied", `wait=${seconds}`);
  if (TERMINAL.has(task.status)) return task;
  const gone = new AbortController();
  const hangUp = () => gone.abort();
  reply.raw.once("close", hangUp);
  try {
    return await waitForTask(core, principalOf(request).tenantId, task.task_id, { timeoutMs: seconds * 1000, signal: gone.signal });
  } finally {
    reply.raw.off("close", hangUp);
  }
}

