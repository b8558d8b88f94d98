import http from "node:http";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { postJson } from "./http-post.js";
import { freePort, launch, waitForHttp, type BenchProcess } from "./processes.js";
import { SETTINGS } from "./settings.js";
import { percentile, sleep, until } from "./stats.js";

// graphile-worker on its own (bench/noop-worker.ts), the reference for the worker figures: how many no-op jobs one
// process runs per second from a filled queue, and how long a job added to an idle worker waits to start.

interface NoopReport {
  firstStartMs: number;
  lastEndMs: number;
  done: number;
  waitsMs: number[];
}

function noopWorker(databaseUrl: string, jobs: number): BenchProcess {
  return launch("no-op worker", "bench/noop-worker.ts", {
    ...process.env,
    DATABASE_URL: databaseUrl,
    JOBS: String(jobs),
    CONCURRENCY: String(SETTINGS.workerConcurrency),
  });
}

async function reportOf(worker: BenchProcess): Promise<NoopReport> {
  const code = await worker.exited;
  const last = worker.stdout().trim().split("\n").pop() ?? "";
  if (code !== 0 || !last.startsWith("{")) throw new Error(`the no-op worker failed (exit ${code})`);
  return JSON.parse(last) as NoopReport;
}

export async function measureNoopThroughput(databaseUrl: string): Promise<number> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`
      select count(*) from graphile_worker.add_jobs(array(
        select ('noop', '{}', null, null, null, null, null, null)::graphile_worker.job_spec
          from generate_series(1, ${SETTINGS.noopJobs})))`;
  } finally {
    await sql.end({ timeout: 5 });
  }
  const report = await reportOf(noopWorker(databaseUrl, SETTINGS.noopJobs));
  return (report.done * 1000) / (report.lastEndMs - report.firstStartMs);
}

export interface NoopLatency {
  p50Ms: number;
  p99Ms: number;
}

// Jobs added one at a time by `enqueue` (given the wall-clock time just before it sends), timed to their starts;
// the first SETTINGS.latencyWarmup are the worker's warm-up, as the service's are, and dropped. Each starts before
// the next is added, so the waits come in the order of the jobs.
async function noopWaits(databaseUrl: string, enqueue: (enqueuedAt: number) => Promise<void>): Promise<NoopLatency> {
  const jobs = SETTINGS.latencyWarmup + SETTINGS.latencySamples;
  const worker = noopWorker(databaseUrl, jobs);
  await until("the no-op worker to listen", async () => worker.stdout().includes("ready"), 30_000);
  for (let n = 0; n < jobs; n++) {
    await enqueue(performance.timeOrigin + performance.now());
    await sleep(SETTINGS.latencySpacingMs);
  }
  const waits = (await reportOf(worker)).waitsMs.slice(SETTINGS.latencyWarmup);
  return { p50Ms: percentile(waits, 50), p99Ms: percentile(waits, 99) };
}

// The reference: `add_job` sent by this process. Then the floor an HTTP service meets before doing any work of
// its own: the same job added by a bare Fastify route (bench/bare-server.ts, POST /jobs) that does nothing else,
// asked through node:http on one kept-alive connection as the service is.
export async function measureNoopLatency(databaseUrl: string): Promise<{ direct: NoopLatency; overHttp: NoopLatency }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const port = await freePort();
  const server = launch("reference server", "bench/bare-server.ts", { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, server);
    const direct = await noopWaits(databaseUrl, async (enqueuedAt) => {
      await sql`select graphile_worker.add_job('noop', json_build_object('enqueued_at', ${enqueuedAt}::float8))`;
    });
    const overHttp = await noopWaits(databaseUrl, async (enqueuedAt) => {
      const answer = await postJson(`http://127.0.0.1:${port}/jobs`, {}, JSON.stringify({ enqueued_at: enqueuedAt }), agent);
      if (answer.status !== 202) throw new Error(`the reference server answered ${answer.status}: ${answer.body}`);
    });
    return { direct, overHttp };
  } finally {
    agent.destroy();
    await server.stop();
    await sql.end({ timeout: 5 });
  }
}
