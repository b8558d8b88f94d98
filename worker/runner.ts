import { EventEmitter } from "node:events";
import { type JobHelpers, type Logger, type Runner, type Task, type TaskList, type WorkerEvents } from "graphile-worker";
import { deliverCallback, executeTask, parseExecuteJob, pollTask, sweepOverdueTasks, taskLogContext, type Core } from "../core/index.js";
import { runOnOwnPool } from "./job-pool.js";
import { withLostWorkerRecovery } from "./lost-worker-recovery.js";
import { restartingRunner, type StallWatch } from "./restarting-runner.js";
import { surviveUnrecordedJobEnds } from "./unrecorded-job-ends.js";

type JobBody = (payload: unknown, helpers: JobHelpers) => Promise<void>;

// Every job timed by name and outcome; a failure is logged with the task, tenant and request it concerns (the job
// itself knows only the task id) and rethrown for graphile-worker to retry or, at shutdown, to release.
function observedJob(core: Core, job: string, body: JobBody): Task {
  return async (payload, helpers) => {
    const stop = core.metrics.jobDuration.startTimer({ job });
    try {
      await body(payload, helpers);
      stop({ outcome: "ok" });
    } catch (error) {
      const released = helpers.abortSignal.aborted;
      stop({ outcome: released ? "released" : "failed" });
      const taskId = (payload as { task_id?: unknown } | null)?.task_id;
      const fields = typeof taskId === "string" ? await taskLogContext(core, taskId).catch(() => ({ task_id: taskId })) : {};
      core.log.warn(
        { ...fields, job, job_id: helpers.job.id, attempt: helpers.job.attempts, max_attempts: helpers.job.max_attempts, err: error },
        released ? "job abandoned at shutdown; it runs again" : "job failed; graphile-worker retries it",
      );
      throw error;
    }
  };
}

// The worker: graphile-worker jobs that call into core. No state lives here; any number of these processes
// can run against one database.
export function taskList(core: Core): TaskList {
  return {
    execute_task: observedJob(core, "execute_task", async (payload, helpers) => {
      const { task_id, deferrals } = parseExecuteJob(payload);
      await executeTask(core, { taskId: task_id, jobId: helpers.job.id, deferrals }, helpers.abortSignal);
    }),
    poll_task: observedJob(core, "poll_task", async (payload, helpers) => {
      const { task_id } = payload as { task_id: string };
      await pollTask(core, task_id, helpers.abortSignal);
    }),
    deliver_callback: observedJob(core, "deliver_callback", async (payload, helpers) => {
      await deliverCallback(core, payload, helpers.abortSignal);
    }),
    sweep: observedJob(core, "sweep", async (_payload, helpers) => {
      const ended = await sweepOverdueTasks(core, helpers.abortSignal);
      if (ended > 0) core.log.info({ ended }, "sweep ended overdue tasks");
    }),
  };
}

export interface WorkerOptions {
  concurrency?: number;
  handleSignals?: boolean;
  logger?: Logger;
  // graphile-worker's lifecycle events (job intake, LISTEN connection, shutdown), for readiness.
  events?: WorkerEvents;
  // Whether the runner is taking jobs (worker/job-intake.ts): one that stops for long is replaced.
  stall?: StallWatch;
}

const LOCAL_QUEUE_TTL_MS = 5000;

// On stop, running jobs get SHUTDOWN_TIMEOUT_MS to finish; then their abort signals fire and graphile-worker
// releases whatever is still running, to be run again by any worker.
export async function startWorker(core: Core, options: WorkerOptions = {}): Promise<Runner> {
  const concurrency = options.concurrency ?? core.config.workerConcurrency;
  // The same events through every restart of the runner, so whoever follows them sees the current pool.
  const events = options.events ?? (new EventEmitter() as WorkerEvents);
  surviveUnrecordedJobEnds(core);
  return restartingRunner(core, () =>
    withLostWorkerRecovery(core, events, () =>
      runOnOwnPool(
        core,
        {
          concurrency,
          noHandleSignals: !options.handleSignals,
          pollInterval: core.config.workerPollIntervalMs,
          gracefulShutdownAbortTimeout: core.config.shutdownTimeoutMs,
          // Each job's end is recorded through graphile-worker's batcher (with no added delay), whose release at
          // shutdown waits for the records still in flight; recorded directly, a job ended just before exit could
          // stay locked to a pool that no longer exists.
          // Jobs are fetched a batch at a time into a local queue (one query for up to `concurrency` jobs instead of
          // one per job). A job waits there while every loop is busy, for LOCAL_QUEUE_TTL_MS at most, then goes back
          // to the database for another worker; the lost-worker recovery counts queued jobs as held.
          preset: {
            worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0, localQueue: { size: concurrency, ttl: LOCAL_QUEUE_TTL_MS } },
          },
          taskList: taskList(core),
          crontab: "* * * * * sweep ?max=1",
          ...(options.logger ? { logger: options.logger } : {}),
          events,
        },
        // A connection per running job, one for LISTEN and one to spare, so no job waits for a connection.
        concurrency + 2,
      ),
    ),
    options.stall,
  );
}
