import { setTimeout as sleep } from "node:timers/promises";
import { getTask } from "../../core/index.js";
import type { ToolCall } from "./types.js";

const TERMINAL = new Set(["succeeded", "failed", "canceled"]);
const POLL_INTERVAL_MS = 250;

type Task = Awaited<ReturnType<typeof getTask>>;

// svc.tasks.get with wait_seconds: reads the task until it is terminal or the wait is over, reporting the task's
// progress as it rises. The worker and this server share only Postgres, so waiting is reading the row again;
// by primary key every quarter second that costs next to nothing.
export async function readTaskWaiting(call: ToolCall, taskId: string, waitSeconds: number): Promise<Task> {
  let task = await getTask(call.core, call.grant.tenantId, taskId);
  const until = Date.now() + waitSeconds * 1000;
  let reported = -1;
  for (;;) {
    if (waitSeconds === 0) return task;
    const progress = task.progress as { percent?: number; message?: string } | null;
    const percent = progress?.percent ?? 0;
    // MCP requires each progress value to exceed the last, so only a rise is reported.
    if (percent > reported) {
      await call.progress({ progress: percent, total: 100, message: `${task.status}: ${progress?.message ?? ""}`.trim() });
      reported = percent;
    }
    const remaining = until - Date.now();
    if (TERMINAL.has(task.status) || remaining <= 0 || call.signal.aborted) return task;
    try {
      await sleep(Math.min(POLL_INTERVAL_MS, remaining), undefined, { signal: call.signal });
    } catch {
      return task;
    }
    task = await getTask(call.core, call.grant.tenantId, taskId);
  }
}
