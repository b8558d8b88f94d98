import type { HostConnection } from "./host-connection";
import { errorOf, isTerminal, structuredOf, taskOf, type Task, type TaskError } from "./task";

// Each svc.tasks.get the view sends waits on the server up to this long for the task to end (woken by the task's
// own change, so the end shows at once) and otherwise answers with its progress: the bar moves every few seconds,
// and a ten-minute video costs 200 calls through the host and no model turn.
const WAIT_SECONDS = 3;
// After a retryable refusal, or a call the host failed to pass on; past the last, the view stops following.
const RETRY_DELAYS_MS = [1000, 3000, 10_000, 30_000];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Follows a task until it ends, handing each answer to `seen`. Resolves with null once the task has ended (or
// `stopped` says the view is going away), or with the error that made it stop following.
export async function followTask(
  connection: Pick<HostConnection, "callTool">,
  getTool: string,
  taskId: string,
  seen: (task: Task) => void,
  stopped: () => boolean,
): Promise<TaskError | null> {
  let failures = 0;
  while (!stopped()) {
    let problem: TaskError;
    try {
      // The view shows the images itself: no thumbnails to make for it.
      const result = await connection.callTool(getTool, { task_id: taskId, wait_seconds: WAIT_SECONDS, thumbnails: false });
      const answer = structuredOf(result);
      const task = result.isError ? null : taskOf(answer);
      if (task) {
        failures = 0;
        seen(task);
        if (isTerminal(task)) return null;
        continue;
      }
      problem = errorOf(answer) ?? { code: "unreadable_answer", message: `${getTool} answered something other than a task.`, retryable: false };
    } catch (error) {
      // The host refused or lost the call; a few tries tell a blip from a host that will not pass it on.
      problem = { code: "host_call_failed", message: error instanceof Error ? error.message : String(error), retryable: true };
    }
    const delay = problem.retryable ? RETRY_DELAYS_MS[failures++] : undefined;
    if (delay === undefined) return problem;
    await sleep(delay);
  }
  return null;
}
