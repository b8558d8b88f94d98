import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { sweepRetention } from "../../core/artifacts/retention.js";
import { sweepOverdueTasks } from "../../core/index.js";
import { runLoad, type LoadResult } from "../load.js";
import type { Side } from "../paired.js";
import type { RunningService } from "../service.js";
import { percentile } from "../stats.js";
import { GROWTH } from "./settings.js";

// The sweep over the seeded database, as the worker's sweep job runs it (here from the benchmark's own core, the
// same functions): first one run of the task sweep, which finds the seed's backlog — every idempotency key and
// task event older than a day, every artifact past its retention (the seed's year was written before retention
// existed, as a deployment upgrading to it finds its database) — then runs of the retention sweep, back to back,
// until GROWTH.sweepSeconds have passed since the sweep began. The oldest GROWTH.filedArtifacts artifacts are
// given small files first, so that expiring them deletes files as in a deployment. A create load runs in slices
// throughout, and for a few slices before, so that create's latency with the sweep running is compared with the
// same service's without.

export interface SweepFigures {
  taskSweep: { seconds: number; keys: number; events: number; artifacts: number };
  // Past their retention when the sweep began; the most one run of the retention sweep expired (its cap).
  retention: { seconds: number; artifacts: number; runs: number; dueBefore: number; mostInOneRun: number };
  without: Latency;
  during: Latency;
}

export interface Latency {
  slices: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const FILE_BYTES = Buffer.alloc(4096, 7);
const FILES_AT_ONCE = 64;

async function countRows(service: RunningService): Promise<{ keys: number; events: number; expired: number }> {
  const [row] = await service.core.db.execute<{ keys: number; events: number; expired: number }>(sql`
    select (select count(*)::int from idempotency_keys) as keys, (select count(*)::int from task_events) as events,
           (select count(*)::int from artifacts where expired_at is not null) as expired`);
  return row ?? { keys: 0, events: 0, expired: 0 };
}

async function dueArtifacts(service: RunningService): Promise<number> {
  const days = service.core.config.artifactRetentionDays;
  const [row] = await service.core.db.execute<{ n: number }>(sql`
    select count(*)::int as n from artifacts where expired_at is null and created_at < now() - make_interval(days => ${days})`);
  return row?.n ?? 0;
}

async function placeFiles(service: RunningService, count: number): Promise<void> {
  const due = await service.core.db.execute<{ storage_key: string }>(sql`
    select storage_key from artifacts where expired_at is null order by created_at limit ${count}`);
  const keys = due.map((row) => row.storage_key);
  for (let i = 0; i < keys.length; i += FILES_AT_ONCE) {
    await Promise.all(
      keys.slice(i, i + FILES_AT_ONCE).map(async (key) => {
        const file = path.join(service.artifactDir, key);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, FILE_BYTES);
      }),
    );
  }
}

function latencyOf(slices: LoadResult[]): Latency {
  const completed = slices.reduce((sum, s) => sum + s.completed, 0);
  const seconds = slices.reduce((sum, s) => sum + s.seconds, 0);
  return {
    slices: slices.length,
    requestsPerSecond: completed / seconds,
    p50Ms: percentile(slices.map((s) => s.p50Ms), 50),
    p99Ms: percentile(slices.map((s) => s.p99Ms), 50),
  };
}

// Load slices until `done` settles (at least one).
async function slicesUntil(create: Side, done: Promise<unknown>): Promise<LoadResult[]> {
  let finished = false;
  void done.then(
    () => (finished = true),
    () => (finished = true),
  );
  const slices: LoadResult[] = [];
  do slices.push(await runLoad({ ...create.load, durationSeconds: GROWTH.loadSliceSeconds }));
  while (!finished);
  return slices;
}

export async function measureSweep(service: RunningService, create: Side, log: (line: string) => void): Promise<SweepFigures> {
  await placeFiles(service, GROWTH.filedArtifacts);
  const baseline: LoadResult[] = [];
  for (let i = 0; i < GROWTH.baselineSlices; i++) baseline.push(await runLoad({ ...create.load, durationSeconds: GROWTH.loadSliceSeconds }));

  const core = service.core;
  const sweeping = (async () => {
    const before = await countRows(service);
    const dueBefore = await dueArtifacts(service);
    const sweepBegan = Date.now();
    await sweepOverdueTasks(core);
    const taskSweepSeconds = (Date.now() - sweepBegan) / 1000;
    const after = await countRows(service);
    log(`sweep: the task sweep took ${taskSweepSeconds.toFixed(1)} s`);
    const began = Date.now();
    let runs = 0;
    let expired = 0;
    let mostInOneRun = 0;
    while (Date.now() - sweepBegan < GROWTH.sweepSeconds * 1000) {
      const count = await sweepRetention(core);
      runs++;
      expired += count;
      mostInOneRun = Math.max(mostInOneRun, count);
      if (count === 0) break;
    }
    return {
      taskSweep: { seconds: taskSweepSeconds, keys: before.keys - after.keys, events: before.events - after.events, artifacts: after.expired - before.expired },
      retention: { seconds: (Date.now() - began) / 1000, artifacts: expired, runs, dueBefore, mostInOneRun },
    };
  })();
  const during = await slicesUntil(create, sweeping);
  return { ...(await sweeping), without: latencyOf(baseline), during: latencyOf(during) };
}
