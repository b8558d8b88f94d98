import type { Server } from "node:http";
import type { Logger } from "../observability/logger.js";
import { withinTime } from "./time-limit.js";

export interface ShutdownPlan {
  // Stop taking new work and finish what is in flight.
  drain(): Promise<void>;
  // The drain overran its bound: cut whatever is left (open connections, running jobs).
  abandon(): Promise<void>;
  // Close the process's own resources (database pools) once nothing uses them.
  release(): Promise<void>;
}

export interface Shutdown {
  // True from the first termination signal on; readiness reports it so load balancers stop sending work.
  readonly stopping: boolean;
}

// How long closing pools and servers may take once the work is done.
const RELEASE_TIMEOUT_MS = 5000;

// A worker's stop past SHUTDOWN_TIMEOUT_MS: its running jobs are aborted then, and graphile-worker gets this long to
// hand them back to the queue for another worker. A worker therefore exits within SHUTDOWN_TIMEOUT_MS plus this.
export const JOB_RELEASE_MS = 5000;

// How long a worker's drain may take: its jobs' SHUTDOWN_TIMEOUT_MS, then their release.
export function workerDrainMs(shutdownTimeoutMs: number): number {
  return shutdownTimeoutMs + JOB_RELEASE_MS;
}

// Whether `work` finished within `ms`.
function within(work: Promise<void>, ms: number): Promise<boolean> {
  return withinTime(work.then(() => true), ms, () => false);
}

// SIGTERM (or SIGINT): drain within `drainMs`, abandon what is left, release, and exit: 0 when everything
// finished in time, 1 otherwise. A second signal exits at once.
// `facts`: what the shutdown line says besides the bound (a worker's time for its jobs).
export function handleTermination(log: Logger, drainMs: number, plan: ShutdownPlan, facts: Record<string, number> = {}): Shutdown {
  const state = { stopping: false };
  const exit = (code: number) => {
    log.flush();
    process.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (state.stopping) {
      log.warn({ signal }, "second termination signal: exiting now");
      exit(1);
      return;
    }
    state.stopping = true;
    log.info({ signal, drain_ms: drainMs, ...facts }, "shutting down: finishing in-flight work");
    void (async () => {
      let clean = await within(plan.drain(), drainMs).catch((error: unknown) => {
        log.error({ err: error }, "draining failed");
        return false;
      });
      if (!clean) {
        log.warn({ drain_ms: drainMs }, "in-flight work did not finish in time; abandoning it");
        await within(plan.abandon(), RELEASE_TIMEOUT_MS).catch(() => false);
      }
      const released = await within(plan.release(), RELEASE_TIMEOUT_MS).catch(() => false);
      clean &&= released;
      log.info({ clean }, "shut down");
      exit(clean ? 0 : 1);
    })();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return state;
}

// While a server closes (`closing`), its idle kept-alive connections are closed as they appear: one that goes idle
// after the close began would otherwise hold the server open until the client drops it. Busy ones go once their
// answer is sent.
export async function closingIdleConnections(server: Server, closing: Promise<void>): Promise<void> {
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  try {
    await closing;
  } finally {
    clearInterval(sweep);
  }
}
