import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { admin, migrateDatabase, parseCredits } from "../../core/index.js";
import { measurePair, type PairResult } from "../paired.js";
import { createSide, holdDiscardedTasks } from "../phases/admission.js";
import { measureCompletion, type Completion } from "../phases/completion.js";
import type { BenchDatabase } from "../postgres.js";
import { startService, type RunningService } from "../service.js";
import { ENHANCE_BODY, SETTINGS } from "../settings.js";
import { ledgerViolations } from "./ledger-check.js";
import { listSides, PAGE, taskReadSide } from "./reads.js";
import { seedDatabase, type SeedResult } from "./seed.js";
import { GROWTH } from "./settings.js";
import { measureSweep, type SweepFigures } from "./sweep.js";
import { prepareTemplates } from "./template-rows.js";
import { makeTemplates } from "./templates.js";

// The growth part of `npm run bench`: the same loads on two databases of the same server, measured side by side
// in alternating rounds like every other pair: an empty one, holding only the measured tenant's tasks, and a seeded
// one, holding a year of GROWTH.tasks finished tasks over GROWTH.tenants tenants, among them the measured tenant
// with the very same tasks. Each database has its own service (REST server, worker, emulator). Then the sweep over
// the seeded database, and completion on each.

export interface GrowthResults {
  loadAverage: string;
  tasks: number;
  tenants: number;
  measuredTasks: number;
  retentionDays: number;
  seed: SeedResult;
  databaseBytes: { empty: number; seeded: number };
  read: PairResult;
  listFirst: PairResult;
  laterPageDepth: number;
  listLater: PairResult;
  create: PairResult;
  sweep: SweepFigures;
  vacuumSeconds: number;
  completion: { empty: Completion[]; seeded: Completion[] };
}

const TENANT_CREDITS = "100000000";
const ENHANCE = { path: "/v1/videos/prompts/enhance", body: ENHANCE_BODY };

async function apiKeyOf(service: RunningService, tenantId: string): Promise<string> {
  const { core } = service;
  return (await admin.createApiKey(core.db, core.ids, core.config.region, tenantId)).key;
}

// The loads' tasks leave with their jobs: any execute job starts any waiting task, so a task left waiting would take
// the completion phase's turns (bench/phases/admission.ts, discardQueuedJobs).
async function clearAfterLoads(service: RunningService): Promise<void> {
  await service.core.db.execute(sql`
    select graphile_worker.complete_jobs(
      array(select id from graphile_worker.jobs where task_identifier = 'execute_task' and locked_at is null))`);
  await holdDiscardedTasks(service);
  await service.core.db.execute(sql`vacuum (analyze)`);
}

async function databaseBytes(service: RunningService): Promise<number> {
  const [row] = await service.core.db.execute<{ bytes: string }>(sql`select pg_database_size(current_database())::text as bytes`);
  return Number(row?.bytes ?? 0);
}

export async function measureGrowth(database: BenchDatabase, log: (line: string) => void): Promise<GrowthResults> {
  const loadAverage = loadavg().map((value) => value.toFixed(2)).join(", ");
  const emptyDb = await database.another();
  const seededDb = await database.another();
  const services: RunningService[] = [];
  try {
    await migrateDatabase(emptyDb.url);
    await migrateDatabase(seededDb.url);
    // The understanding templates fetch their image from the benchmark process, on loopback; both services are
    // started alike.
    const env = { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true" };
    const empty = await startService(emptyDb.url, env);
    services.push(empty);
    log("growth: template tasks, made by the service and run to their end");
    const templates = prepareTemplates(await makeTemplates(empty));
    const plan = {
      tasks: GROWTH.tasks,
      tenants: GROWTH.tenants,
      measuredEvery: GROWTH.measuredEvery,
      measuredExtraMicro: parseCredits(TENANT_CREDITS),
      region: empty.core.config.region,
      now: new Date(),
    };
    log(`growth: seeding ${GROWTH.tasks.toLocaleString("en-US")} finished tasks over ${GROWTH.tenants.toLocaleString("en-US")} tenants`);
    const seed = await seedDatabase(seededDb.url, templates, { ...plan, onlyMeasured: false }, log);
    log(`growth: seeded in ${Math.round(seed.seconds)} s; the measured tenant's ${Math.floor(GROWTH.tasks / GROWTH.measuredEvery)} alone into the empty database`);
    const emptySeed = await seedDatabase(emptyDb.url, templates, { ...plan, onlyMeasured: true }, () => {});
    if (emptySeed.measuredTenantId !== seed.measuredTenantId) throw new Error("the two databases' measured tenants differ");
    for (const url of [seededDb.url, emptyDb.url]) {
      const violations = await ledgerViolations(url);
      if (violations > 0) throw new Error(`the seeded ledger breaks the credit invariant in ${violations} accounts or tasks`);
    }
    log("growth: both databases' ledgers hold the credit invariant");
    const seeded = await startService(seededDb.url, env);
    services.push(seeded);
    const bytes = { empty: await databaseBytes(empty), seeded: await databaseBytes(seeded) };
    const tenantId = seed.measuredTenantId;
    const [emptyKey, seededKey] = [await apiKeyOf(empty, tenantId), await apiKeyOf(seeded, tenantId)];

    log("growth: read, GET /v1/tasks/{id}, empty against seeded");
    const read = await measurePair(seeded.core, await taskReadSide(empty, tenantId, emptyKey), await taskReadSide(seeded, tenantId, seededKey));
    // Half the measured tenant's tasks deep at most, for a small seed.
    const laterPageDepth = Math.min(GROWTH.laterPageDepth, Math.floor(emptySeed.tasks / 2 / PAGE) * PAGE);
    const [emptyLists, seededLists] = [await listSides(empty, emptyKey, laterPageDepth), await listSides(seeded, seededKey, laterPageDepth)];
    log("growth: list, first page");
    const listFirst = await measurePair(seeded.core, emptyLists.first, seededLists.first);
    log(`growth: list, ${laterPageDepth.toLocaleString("en-US")} tasks deep`);
    const listLater = await measurePair(seeded.core, emptyLists.later, seededLists.later);
    log("growth: create");
    const seededCreate = { ...createSide(seeded, seededKey), core: seeded.core };
    const create = await measurePair(seeded.core, { ...createSide(empty, emptyKey), core: empty.core }, seededCreate);
    log("growth: the sweep over the seeded database, with creates");
    const sweep = await measureSweep(seeded, seededCreate, log);
    // The loads above left a few hundred thousand queued tasks and their jobs, and the sweep as many dead rows:
    // the jobs go (completed unrun, so that no side's worker scans more of them), and both databases are vacuumed
    // and analyzed, as autovacuum would in the minutes after, so that completion measures the data and not the
    // catch-up of one side.
    const began = Date.now();
    for (const service of services) await clearAfterLoads(service);
    const vacuumSeconds = (Date.now() - began) / 1000;
    log(`growth: load jobs removed, both databases vacuumed and analyzed in ${Math.round(vacuumSeconds)} s`);

    const completion: GrowthResults["completion"] = { empty: [], seeded: [] };
    for (let round = 0; round < GROWTH.completionRounds; round++) {
      for (const [name, service] of [
        ["empty", empty],
        ["seeded", seeded],
      ] as const) {
        log(`growth: to completion, ${SETTINGS.completionTasks} prompt enhancements, ${name} (round ${round + 1})`);
        completion[name].push(await measureCompletion(service, [await service.newTenant(TENANT_CREDITS)], ENHANCE, SETTINGS.completionTasks));
        await service.stopWorker();
      }
    }
    return {
      loadAverage,
      tasks: seed.tasks,
      tenants: GROWTH.tenants,
      measuredTasks: emptySeed.tasks,
      retentionDays: seeded.core.config.artifactRetentionDays,
      seed,
      databaseBytes: bytes,
      read,
      listFirst,
      laterPageDepth,
      listLater,
      create,
      sweep,
      vacuumSeconds,
      completion,
    };
  } finally {
    await Promise.all(services.map((service) => service.close()));
    await emptyDb.drop();
    await seededDb.drop();
  }
}
