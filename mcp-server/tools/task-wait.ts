import { getTask, isTerminal, waitForTask } from "../../core/index.js";
import type { ToolCall } from "./types.js";

type Task = Awaited<ReturnType<typeof getTask>>;

// Bounded below common client request timeouts (60 s in the SDKs), so a wait never turns into a client error.
export const MAX_WAIT_SECONDS = 30;

export interface WaitedTask {
  task: Task;
  // The wait saw the task end: it was queued or running when the wait began and is terminal now.
  endedWhileWaiting: boolean;
}

// svc.tasks.get with wait_seconds: the task once it ends or when the wait is over, reporting its progress as it
// rises. Woken by core's task-change notifications (the same as REST's Prefer: wait), not by polling.
export async function readTaskWaiting(call: ToolCall, taskId: string, waitSeconds: number): Promise<WaitedTask> {
  if (waitSeconds === 0) return { task: await getTask(call.core, call.grant.tenantId, taskId), endedWhileWaiting: false };
  let reported = -1;
  let firstStatus: string | undefined;
  const task = await waitForTask(call.core, call.grant.tenantId, taskId, {
    timeoutMs: waitSeconds * 1000,
    signal: call.signal,
    async onChange(task) {
      firstStatus ??= task.status;
      const progress = task.progress as { percent?: number; message?: string } | null;
      const percent = progress?.percent ?? 0;
      // MCP requires each progress value to exceed the last, so only a rise is reported.
      if (percent <= reported) return;
      reported = percent;
      await call.progress({ progress: percent, total: 100, message: `${task.status}: ${progress?.message ?? ""}`.trim() });
    },
  });
  return { task, endedWhileWaiting: firstStatus !== undefined && !isTerminal(firstStatus) && isTerminal(task.status) };
}
