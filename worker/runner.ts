import { run, type Logger, type Runner, type TaskList } from "graphile-worker";
import { deliverCallback, executeTask, pollTask, sweepOverdueTasks, type Core } from "../core/index.js";

// The worker: graphile-worker jobs that call into core. No state lives here; any number of these processes
// can run against one database.
export function taskList(core: Core): TaskList {
  return {
    execute_task: async (payload, helpers) => {
      const { task_id } = payload as { task_id: string };
      await executeTask(core, task_id, helpers.abortSignal);
    },
    poll_task: async (payload, helpers) => {
      const { task_id } = payload as { task_id: string };
      await pollTask(core, task_id, helpers.abortSignal);
    },
    deliver_callback: async (payload, helpers) => {
      await deliverCallback(core, payload, helpers.abortSignal);
    },
    sweep: async () => {
      await sweepOverdueTasks(core);
    },
  };
}

export async function startWorker(
  core: Core,
  options: { concurrency?: number; handleSignals?: boolean; logger?: Logger } = {},
): Promise<Runner> {
  return run({
    connectionString: core.config.databaseUrl,
    concurrency: options.concurrency ?? core.config.workerConcurrency,
    noHandleSignals: !options.handleSignals,
    pollInterval: core.config.workerPollIntervalMs,
    taskList: taskList(core),
    crontab: "* * * * * sweep ?max=1",
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
