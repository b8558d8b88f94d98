import type { FastifyReply, FastifyRequest } from "fastify";
import { MAX_WAIT_SECONDS, waitForTask, type Core, type WaitOptions } from "../../core/index.js";
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

// The wait a request asked for, as core waits (until the task ends or the time is up), or undefined when it asked
// for none. A client that hangs up ends the wait.
export function preferredWait(request: FastifyRequest, reply: FastifyReply): WaitOptions | undefined {
  const seconds = preferredWaitSeconds(request);
  if (seconds === undefined) return undefined;
  const gone = new AbortController();
  reply.raw.once("close", () => gone.abort());
  return { timeoutMs: seconds * 1000, signal: gone.signal };
}

// Preference-Applied, on the answer the wait produced (a refusal applied no preference).
export function markWaitApplied(reply: FastifyReply, wait: WaitOptions): void {
  reply.header("Preference-Applied", `wait=${wait.timeoutMs / 1000}`);
}

// A task just created as it stands, or, when the request asked to wait, once it has ended or the wait is over,
// whichever comes first.
export async function afterPreferredWait(core: Core, request: FastifyRequest, reply: FastifyReply, task: Task): Promise<Task> {
  const wait = preferredWait(request, reply);
  if (!wait) return task;
  const answer = TERMINAL.has(task.status) ? task : await waitForTask(core, principalOf(request).tenantId, task.task_id, wait);
  markWaitApplied(reply, wait);
  return answer;
}
