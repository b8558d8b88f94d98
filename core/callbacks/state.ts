import type { TaskRow } from "../tasks/repository.js";

// The delivery log of a task's callback, kept in `tasks.callback_state` and shown (url, status, attempt_count,
// delivered_at, last_error) as the envelope's `callback` object. Null until the task is terminal.
//   pending   an attempt is scheduled and none has been made since the task ended (or a redelivery was asked)
//   retrying  an attempt failed and the next one is scheduled
//   delivered the last attempt got a 2xx
//   failed    the last scheduled attempt (or a redelivery) failed; nothing more is scheduled
export type CallbackStatus = "pending" | "retrying" | "delivered" | "failed";

export interface CallbackState {
  status: CallbackStatus;
  attempt_count: number;
  delivered_at: string | null;
  // The most recent failure, kept after a later success so the envelope still tells why earlier attempts failed.
  last_error: string | null;
  // The event's identity, stable across every attempt and redelivery.
  event_id: string;
  event_type: string;
  event_time: string;
  next_attempt_at: string | null;
}

export const IN_FLIGHT: readonly CallbackStatus[] = ["pending", "retrying"];
export const SETTLED: readonly CallbackStatus[] = ["delivered", "failed"];

export function callbackStateOf(row: TaskRow): CallbackState | null {
  return (row.callbackState as CallbackState | null) ?? null;
}
