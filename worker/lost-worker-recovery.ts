import type { Runner, WorkerEvents } from "graphile-worker";
import { startLostWorkerRecovery, withinTime, type Core } from "../core/index.js";

const KILL_WAIT_MS = 5000;

// Starts a graphile-worker runner with the recovery of jobs locked by lost workers (core/jobs/lost-workers.ts):
// the pool's id, known from its creation event, names this process's liveness session; the jobs it holds are
// followed through its events: fetched into the local queue, started, returned from the queue, completed.
// Stopping or killing the runner, or its stopping by itself, ends the recovery too, and with it the liveness
// session, so that other workers take over what this pool still held.
export async function withLostWorkerRecovery(core: Core, events: WorkerEvents, start: () => Promise<Runner>): Promise<Runner> {
  let poolId: string | undefined;
  const held = new Set<string>();
  const onPool = ({ workerPool }: { workerPool: { id: string } }) => {
    poolId ??= workerPool.id;
  };
  const onFetched = ({ jobs }: { jobs: readonly { id: string }[] }) => jobs.forEach((job) => held.add(job.id));
  const onReturned = ({ jobs }: { jobs: readonly { id: string }[] }) => jobs.forEach((job) => held.delete(job.id));
  const onStart = ({ job }: { job: { id: string } }) => held.add(job.id);
  const onComplete = ({ job }: { job: { id: string } }) => held.delete(job.id);
  events.on("pool:create", onPool);
  events.on("localQueue:getJobs:complete", onFetched);
  events.on("localQueue:returnJobs", onReturned);
  events.on("job:start", onStart);
  events.on("job:complete", onComplete);
  const unlisten = () => {
    events.off("pool:create", onPool);
    events.off("localQueue:getJobs:complete", onFetched);
    events.off("localQueue:returnJobs", onReturned);
    events.off("job:start", onStart);
    events.off("job:complete", onComplete);
  };
  let runner: Runner;
  try {
    runner = await start();
  } catch (error) {
    unlisten();
    throw error;
  }
  if (!poolId) throw new Error("graphile-worker started without announcing its worker pool");
  const recovery = startLostWorkerRecovery(core, { id: poolId, heldJobIds: () => held }, (error) =>
    core.log.warn({ err: error }, "looking for jobs of lost workers failed; trying again"),
  );
  let ended: Promise<void> | undefined;
  const endRecovery = () => (ended ??= (unlisten(), recovery.stop()));
  const stopped = runner.promise.then(endRecovery, endRecovery);
  return {
    ...runner,
    // Settles once the recovery has ended too.
    promise: runner.promise.finally(() => stopped),
    async stop(reason) {
      try {
        await runner.stop(reason);
      } finally {
        await endRecovery();
      }
    },
    // A killed pool may never finish ending (it waits for job ends it cannot record); after KILL_WAIT_MS its
    // liveness session ends anyway, so that the jobs it still holds go to other pools.
    async kill(reason) {
      try {
        await withinTime(runner.kill(reason), KILL_WAIT_MS, () => undefined);
      } finally {
        await endRecovery();
      }
    },
  };
}
