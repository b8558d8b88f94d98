import { loadavg } from "node:os";
import { migrateDatabase } from "../core/index.js";
import { checkoutCommit } from "./commit.js";
import { measureGrowth } from "./growth/run.js";
import { GROWTH } from "./growth/settings.js";
import { measureNoopLatency, measureNoopThroughput } from "./job-reference.js";
import { measurePair } from "./paired.js";
import { createSide, discardQueuedJobs, readSide } from "./phases/admission.js";
import { measureBehindBacklog } from "./phases/behind-backlog.js";
import { measureCompletion } from "./phases/completion.js";
import { measureDrain, type Drain } from "./phases/drain.js";
import { measureInFlight } from "./phases/in-flight.js";
import { measureAdmissionToRunning } from "./phases/latency.js";
import { openBenchDatabase, type BenchDatabase } from "./postgres.js";
import { startReferenceServer, type ReferenceServer } from "./reference-server.js";
import { resultsDocument, resultsTable, type BenchResults } from "./report.js";
import { writeMainResults } from "./results-file.js";
import { startService, type RunningService } from "./service.js";
import { ENHANCE_BODY, SETTINGS, SPEECH_BODY } from "./settings.js";
import { startSlowOrigin, type SlowOrigin } from "./slow-origin.js";
import { newTenants } from "./tenants.js";

// `npm run bench`: the references and the service measured side by side in one run, then drains of slow tasks by
// one tenant and by two (on a database of their own), then the service on a database seeded with a year of tasks
// against an empty one (bench/growth/, unless BENCH_GROWTH_TASKS=0), then one table printed and written to
// bench/RESULTS.md. Everything it starts (Postgres when embedded, the service's processes) and everything it stores
// (its databases, artifacts) is gone when it ends, also on Ctrl-C or failure.

const log = (line: string) => console.log(`[bench] ${line}`);
const TENANT_CREDITS = "100000000";
const ENHANCE = { path: "/v1/videos/prompts/enhance", body: ENHANCE_BODY };
const SPEECH = { path: "/v1/audio/speech", body: SPEECH_BODY };

const startedAt = Date.now();
const loadAverage = loadavg().map((value) => value.toFixed(2)).join(", ");
let database: BenchDatabase | null = null;
let reference: ReferenceServer | null = null;
let service: RunningService | null = null;
let origin: SlowOrigin | null = null;
let cleaning: Promise<void> | null = null;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    const report = (what: string) => (error: unknown) => console.error(`[bench] ${what}:`, error);
    await Promise.all([
      reference?.close().catch(report("stopping the reference server")),
      service?.close().catch(report("stopping the service")),
      origin?.close().catch(report("stopping the slow media origin")),
    ]);
    await database?.close().catch(report("removing the database"));
  })();
  return cleaning;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
}

try {
  database = await openBenchDatabase(log);
  await migrateDatabase(database.url);
  reference = await startReferenceServer(database.url);
  service = await startService(database.url);
  const creator = await service.newTenant(TENANT_CREDITS);

  log(`create: POST /v1/audio/speech against a bare INSERT, ${SETTINGS.connections} connections`);
  const create = await measurePair(service.core, reference.insertSide, createSide(service, creator.apiKey));
  log("read: GET /v1/tasks/{id} against a bare GET by primary key");
  const read = await measurePair(service.core, await reference.getSide(), await readSide(service, creator.tenantId, creator.apiKey));
  await reference.close();
  reference = null;
  await discardQueuedJobs(service);

  log(`reference: ${SETTINGS.noopJobs} graphile-worker no-op jobs`);
  const noopJobsPerSecond = await measureNoopThroughput(database.url);
  log(`to completion: ${SETTINGS.completionTasks} prompt enhancements`);
  const completion = await measureCompletion(service, [await service.newTenant(TENANT_CREDITS)], ENHANCE, SETTINGS.completionTasks);
  log(`to completion: ${SETTINGS.completionTasks} prompt enhancements of ${SETTINGS.sharingTenants} tenants`);
  const sharedCompletion = await measureCompletion(service, await newTenants(service, SETTINGS.sharingTenants, TENANT_CREDITS), ENHANCE, SETTINGS.completionTasks);
  log(`to completion: ${SETTINGS.speechCompletionTasks} speech tasks`);
  const speechCompletion = await measureCompletion(service, [await service.newTenant(TENANT_CREDITS)], SPEECH, SETTINGS.speechCompletionTasks);
  await service.stopWorker();
  log("reference: no-op job from enqueue to start");
  const noopLatency = await measureNoopLatency(database.url);
  log("admission to running");
  const latency = await measureAdmissionToRunning(service, [await service.newTenant(TENANT_CREDITS)], ENHANCE);
  log(`admission to running, ${SETTINGS.sharingTenants} tenants in turn`);
  const sharedLatency = await measureAdmissionToRunning(service, await newTenants(service, SETTINGS.sharingTenants, TENANT_CREDITS), ENHANCE);
  log(`admission to running beside another tenant's ${SETTINGS.backlogTasks} queued tasks`);
  const behindBacklog = await measureBehindBacklog(service, await service.newTenant(TENANT_CREDITS), await service.newTenant(TENANT_CREDITS), ENHANCE, {
    backlog: SETTINGS.backlogTasks,
    samples: SETTINGS.backlogSamples,
  });
  log(`in flight: ${SETTINGS.inFlightTasks} video tasks pending at the emulator`);
  const inFlight = await measureInFlight(service, await service.newTenant(TENANT_CREDITS));
  await service.close();
  service = null;

  // The drains run on a database of their own, away from the in-flight phase's tasks still pending at the emulator.
  const drainDatabase = await database.another();
  await migrateDatabase(drainDatabase.url);
  origin = await startSlowOrigin(SETTINGS.drainDownloadMs);
  const drains: Drain[] = [];
  for (const concurrency of [SETTINGS.workerConcurrency, SETTINGS.localWorkerConcurrency]) {
    log(`drain: ${SETTINGS.drainTasks} slow image-understanding tasks of one tenant, then of two, worker concurrency ${concurrency}`);
    // OUTBOUND_ALLOW_LOOPBACK_HTTP is the one setting this case needs: the tasks' images come from the slow origin
    // on this machine (plain HTTP on 127.0.0.1), which the service refuses to fetch by default. How tenants share
    // the worker stays the default.
    service = await startService(drainDatabase.url, { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true" }, concurrency);
    drains.push(await measureDrain(service, origin, TENANT_CREDITS));
    await service.close();
    service = null;
  }
  await origin.close();
  origin = null;
  await drainDatabase.drop();
  const growth = GROWTH.tasks > 0 ? await measureGrowth(database, log) : null;

  const results: BenchResults = {
    date: new Date(),
    commit: checkoutCommit(),
    postgres: database.server,
    durationSeconds: (Date.now() - startedAt) / 1000,
    loadAverage,
    create,
    read,
    noopJobsPerSecond,
    noopLatency,
    completion,
    sharedCompletion,
    speechCompletion,
    latency,
    sharedLatency,
    behindBacklog,
    drains,
    inFlight,
    growth,
  };
  console.log(`\n${resultsTable(results)}\n`);
  await writeMainResults(resultsDocument(results));
  log("written to bench/RESULTS.md (the other benchmarks' sections kept)");
} catch (error) {
  console.error("[bench] failed:", error);
  process.exitCode = 1;
} finally {
  await cleanUp();
  log(`finished in ${Math.round((Date.now() - startedAt) / 1000)} s`);
}
