import { getTask, waitForTask } from "../../core/index.js";
import type { ToolCall } from "./types.js";

type Task = Awaited<ReturnType<typeof getTask>>;

// svc.tasks.get with wait_seconds: the task once it ends or when the wait is over, reporting its progress as it
// rises. Woken by core's task-change notifications (the same as REST's Prefer: wait), not by polling.
export async function readTaskWaiting(call: ToolCall, taskId: string, waitSeconds: number): Promise<Task> {
  if (waitSeconds === 0) return getTask(call.core, call.grant.tenantId, taskId);
  let reported = -1;
  return waitForTask(call.core, call.grant.tenantId, taskId, {
    timeoutMs: waitSeconds * 1000,
    signal: call.signal,
    async onChange(task) {
      const progress = task.progress as { percent?: number; message?: string } | null;
      const percent = progress?.percent ?? 0;
      // MCP requires each progress value to exceed the last, so only a rise is reported.
      if (percent <= reported) return;
      reported = percent;
      await call.progress({ progress: percent, total: 100, message: `${task.status}: ${progress?.message ?? ""}`.trim() });
    },
  });
}
