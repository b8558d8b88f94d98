import type { Runner } from "graphile-worker";
import type { Core } from "../core/index.js";

const RESTART_DELAY_MS = { first: 250, max: 10_000 };

// graphile-worker shuts its worker pool down when it cannot record a job's end (the database restarting, for
// one), and the runner then stops for good. A worker process must outlive a database restart, so a runner that
// stops without being asked to is started again, after a doubling delay while the database stays out of reach.
// Its jobs are not lost meanwhile: those the old pool held are given back by the lost-worker recovery once its
// liveness session is gone (core/jobs/lost-workers.ts). The first start fails as before, so a process that
// cannot start at all still exits.
//
// A runner can also outlive its database's restart without working again: its loops never ask for jobs anymore
// (seen under load: the pool's job-end records failed and it neither stopped nor took another job). Given
// `takingJobs` (worker/job-intake.ts), a runner that has not been taking jobs for `stallAfterMs` is killed and
// replaced the same way, without waiting for it to end; a worker waiting out a database outage is replaced too,
// which costs nothing.
export interface StallWatch {
  takingJobs(): boolean;
  stallAfterMs: number;
}

export async function restartingRunner(core: Core, start: () => Promise<Runner>, stall?: StallWatch): Promise<Runner> {
  const first = await start();
  let running: Runner | null = first;
  let stopping = false;
  let restarting: Promise<void> = Promise.resolve();
  let wake: () => void = () => {};
  let settle!: { resolve(): void; reject(error: unknown): void };
  const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));

  const follow = (runner: Runner) => {
    runner.promise.then(
      () => ended(runner, null),
      (error: unknown) => ended(runner, error),
    );
  };
  const ended = (runner: Runner, error: unknown) => {
    // A runner given up as stalled may still end some time later; it has been replaced already.
    if (runner !== running) return;
    running = null;
    if (stopping) return error === null ? settle.resolve() : settle.reject(error);
    core.log.error({ err: error ?? "stopped by itself" }, "the job runner stopped; starting it again");
    restarting = restart();
  };
  const restart = async () => {
    for (let delay = RESTART_DELAY_MS.first; !stopping; delay = Math.min(delay * 2, RESTART_DELAY_MS.max)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        wake = () => (clearTimeout(timer), resolve());
      });
      if (stopping) break;
      try {
        const runner = await start();
        if (stopping) {
          await runner.stop();
          break;
        }
        running = runner;
        follow(runner);
        core.log.warn("the job runner is running again");
        return;
      } catch (error) {
        core.log.warn({ err: error, retry_in_ms: Math.min(delay * 2, RESTART_DELAY_MS.max) }, "the job runner could not start again yet");
      }
    }
    settle.resolve();
  };
  follow(first);

  let notTakingSince: number | null = null;
  const watchdog = stall
    ? setInterval(() => {
        if (!running || stopping || stall.takingJobs()) {
          notTakingSince = null;
          return;
        }
        notTakingSince ??= Date.now();
        if (Date.now() - notTakingSince < stall.stallAfterMs) return;
        notTakingSince = null;
        // Its kill may never finish (the pool waits for job ends it cannot record), so it is replaced at once.
        const stalled = running;
        running = null;
        core.log.error({ stalled_ms: stall.stallAfterMs }, "the job runner stopped taking jobs; replacing it");
        stalled.kill("stopped taking jobs").catch((error: unknown) => core.log.warn({ err: error }, "killing the stalled job runner failed"));
        restarting = restart();
      }, 1000)
    : undefined;
  watchdog?.unref();

  const end = async (how: (runner: Runner) => Promise<void>) => {
    stopping = true;
    clearInterval(watchdog);
    wake();
    if (running) await how(running);
    else await restarting;
  };
  return {
    addJob: (...args) => (running ?? first).addJob(...args),
    events: first.events,
    promise,
    stop: (reason) => end((runner) => runner.stop(reason)),
    kill: (reason) => end((runner) => runner.kill(reason)),
  };
}
