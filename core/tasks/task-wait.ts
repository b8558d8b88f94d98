import type { ReadSql } from "../db/client.js";
import type { TaskEnvelope } from "./envelope.js";
import { getTask, type EnvelopeRuntime } from "./read.js";
import { isTerminal } from "../db/task-state-machine.js";
import type { TaskChange, TaskChangeHub } from "./task-changes.js";

// The longest a request may ask the server to wait (Prefer: wait=N, N ≤ 60).
export const MAX_WAIT_SECONDS = 60;

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  // Each reading of the task while waiting: the first, and one after every change of its status or progress.
  onChange?: (task: TaskEnvelope) => void | Promise<void>;
}

// The parts of the runtime a wait uses: the process's task changes, and what reading the task uses.
export interface TaskWaitRuntime extends EnvelopeRuntime {
  reads: ReadSql;
  taskChanges: Pick<TaskChangeHub, "subscribe">;
}

// A task's envelope once it has ended, or as it stands when the time is up (or the caller went away). Woken by the
// process's shared LISTEN connection (core/tasks/task-changes.ts), never by polling: the subscription is made
// before the first reading, so a change committed in between is not missed. Unknown and foreign ids answer
// task_not_found, as getTask does. svc.tasks.get's wait can be built on this as REST's Prefer: wait is.
export async function waitForTask(core: TaskWaitRuntime, tenantId: string, taskId: string, options: WaitOptions): Promise<TaskEnvelope> {
  const changes: (TaskChange | null)[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = await core.taskChanges.subscribe(taskId, (change) => {
    changes.push(change);
    wake?.();
  });
  const timer = { id: undefined as NodeJS.Timeout | undefined };
  try {
    let task = await getTask(core, tenantId, taskId);
    await options.onChange?.(task);
    const over = new Promise<void>((resolve) => {
      timer.id = setTimeout(resolve, Math.max(0, options.timeoutMs));
      if (options.signal?.aborted) resolve();
      else options.signal?.addEventListener("abort", () => resolve(), { once: true });
    });
    let ended = false;
    void over.then(() => {
      ended = true;
      wake?.();
    });
    while (!isTerminal(task.status) && !ended) {
      if (changes.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (changes.length === 0) continue;
      changes.length = 0;
      task = await getTask(core, tenantId, taskId);
      await options.onChange?.(task);
    }
    return task;
  } finally {
    clearTimeout(timer.id);
    unsubscribe();
  }
}
