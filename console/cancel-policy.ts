import { isTerminal } from "../client/src/types.js";
import type { ModelCard, Task } from "./types";

// Whether a task can be canceled now, and why not when it cannot, as the service decides it (SPEC.md's cancel
// rows): an ended task has nothing to cancel; a queued one never reached a vendor and always can; a running one can
// only where its model's vendor job can be stopped, as the model's card says (`cancel_while_running`); otherwise
// the service answers 409 and the task runs to its end.

export type CancelPolicy = { cancelable: true } | { cancelable: false; reason: string };

// `card`: the resolved model's card, undefined while it is being read.
export function cancelPolicy(task: Task, card: ModelCard | undefined): CancelPolicy {
  if (isTerminal(task)) return { cancelable: false, reason: `It has ended (${task.status}): there is nothing to cancel.` };
  if (task.cancel_requested_at) return { cancelable: false, reason: "Cancellation was asked for: it ends canceled shortly." };
  if (task.status === "queued") return { cancelable: true };
  if (!card) return { cancelable: false, reason: "Reading whether its model can stop running work…" };
  if (card.cancel_while_running) return { cancelable: true };
  return {
    cancelable: false,
    reason: `It is already running on ${task.resolved_model}, which cannot stop work once started: it finishes (and is charged) or fails (and is refunded).`,
  };
}
