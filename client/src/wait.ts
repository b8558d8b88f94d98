import { WaitTimeoutError } from "./errors.js";
import { operationRoute } from "./operation-route.js";
import { readEventStream } from "./server-sent-events.js";
import type { Transport } from "./transport.js";
import { isTerminal, type Task, type TaskStatus } from "./types.js";

// The service holds a Prefer: wait request open at most this long (docs/decisions.md, Waiting).
export const MAX_SERVER_WAIT_SECONDS = 60;
const DEFAULT_TIMEOUT_MS = 15 * 60_000;
// The stream's own `retry:` replaces this once the first connection has sent it.
const DEFAULT_RECONNECT_MS = 2_000;

// A change the event stream reported: `status` when the status changed, `progress` when only progress did.
export interface TaskChange {
  event: "status" | "progress";
  id: string;
  task_id: string;
  status: TaskStatus;
  progress: Task["progress"];
}

export interface WaitOptions {
  // How long to wait in all before WaitTimeoutError (the task itself goes on). Default 15 minutes.
  timeoutMs?: number;
  // The first, server-side wait (Prefer: wait=N, at most 60 seconds); the event stream follows if the task is open.
  serverWaitSeconds?: number;
  signal?: AbortSignal;
  // Each change the stream delivers, once, in order (resumed streams included).
  onChange?: (change: TaskChange) => void;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", aborted, { once: true });
  });
}

// Reads the task's event stream until its final `task` event, reconnecting with Last-Event-ID when the connection
// ends first, so each change reaches onChange once. Answers the final envelope.
async function streamUntilEnd(transport: Transport, taskId: string, signal: AbortSignal, onChange: WaitOptions["onChange"]): Promise<Task> {
  let lastEventId: string | undefined;
  let reconnectMs = DEFAULT_RECONNECT_MS;
  for (;;) {
    const response = await transport.open({
      ...operationRoute("streamTaskEvents", { task_id: taskId }),
      headers: { accept: "text/event-stream", ...(lastEventId !== undefined ? { "last-event-id": lastEventId } : {}) },
      signal,
    });
    let final: Task | undefined;
    // Thrown by this side (a malformed event, the caller's onChange): not a lost connection, never retried.
    let handlerError: unknown;
    const handle = (act: () => void) => {
      try {
        act();
      } catch (error) {
        handlerError ??= error;
        throw error;
      }
    };
    try {
      if (!response.body) throw new Error("the event stream answered without a body");
      await readEventStream(response.body, {
        event: (event) =>
          handle(() => {
            if (event.event === "task") final = JSON.parse(event.data) as Task;
            else if (event.event === "status" || event.event === "progress") {
              if (event.id !== undefined) lastEventId = event.id;
              onChange?.({ event: event.event, id: event.id ?? "", ...(JSON.parse(event.data) as Omit<TaskChange, "event" | "id">) });
            }
          }),
        retry(ms) {
          reconnectMs = ms;
        },
      });
    } catch (error) {
      // A connection lost mid-stream is resumed below; an abort (caller or deadline) ends the wait.
      if (signal.aborted) throw signal.reason;
      if (handlerError !== undefined) throw handlerError;
      if (!response.body) throw error;
    }
    if (final) return final;
    await sleep(reconnectMs, signal);
  }
}

// Until the task ends: one server-side wait (Prefer: wait), then its event stream. Answers the ended envelope.
export async function waitForTaskEnd(transport: Transport, target: Task | string, options: WaitOptions = {}): Promise<Task> {
  let known = typeof target === "string" ? undefined : target;
  if (known && isTerminal(known)) return known;
  const taskId = typeof target === "string" ? target : target.task_id;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const controller = new AbortController();
  const timedOut = new Error("wait deadline");
  const timer = setTimeout(() => controller.abort(timedOut), timeoutMs);
  const forward = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) forward();
  options.signal?.addEventListener("abort", forward, { once: true });
  try {
    const seconds = Math.min(MAX_SERVER_WAIT_SECONDS, options.serverWaitSeconds ?? MAX_SERVER_WAIT_SECONDS, Math.floor((deadline - Date.now()) / 1000));
    if (seconds >= 1) {
      known = (await transport.json<Task>({ ...operationRoute("getTask", { task_id: taskId }), headers: { prefer: `wait=${seconds}` }, signal: controller.signal })).body;
      if (isTerminal(known)) return known;
    }
    return await streamUntilEnd(transport, taskId, controller.signal, options.onChange);
  } catch (error) {
    if (controller.signal.reason !== timedOut) throw error;
    const last = known ?? (await transport.json<Task>(operationRoute("getTask", { task_id: taskId }))).body;
    throw new WaitTimeoutError(last, timeoutMs);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", forward);
  }
}
