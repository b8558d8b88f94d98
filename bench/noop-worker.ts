import { performance } from "node:perf_hooks";
import { Logger, run } from "graphile-worker";

// graphile-worker alone, as the reference for the service's worker: a process running `noop` jobs (which do
// nothing) at the service worker's concurrency until it has run JOBS of them. It prints `ready` once it listens
// for jobs and, at the end, one line of JSON: when the first job started, when the last one ended, and for jobs
// that carry `enqueued_at` (wall-clock milliseconds) how long each waited from its enqueue to its start.

const expected = Number(process.env.JOBS);
const wallClockMs = () => performance.timeOrigin + performance.now();
let firstStartMs = 0;
let lastEndMs = 0;
let done = 0;
const waitsMs: number[] = [];
let finished!: () => void;
const allDone = new Promise<void>((resolve) => (finished = resolve));

const runner = await run({
  connectionString: process.env.DATABASE_URL as string,
  concurrency: Number(process.env.CONCURRENCY),
  noHandleSignals: true,
  pollInterval: 1000,
  logger: new Logger(() => () => {}),
  taskList: {
    noop: async (payload) => {
      const startMs = wallClockMs();
      if (firstStartMs === 0) firstStartMs = startMs;
      const enqueuedAt = (payload as { enqueued_at?: number }).enqueued_at;
      if (enqueuedAt !== undefined) waitsMs.push(startMs - enqueuedAt);
      lastEndMs = wallClockMs();
      if (++done === expected) finished();
    },
  },
});
process.stdout.write("ready\n");
await allDone;
await runner.stop();
process.stdout.write(`${JSON.stringify({ firstStartMs, lastEndMs, done, waitsMs })}\n`);
