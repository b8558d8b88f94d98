import { EventEmitter } from "node:events";
import type { WorkerEvents } from "graphile-worker";
import {
  createCore,
  createLogger,
  handleTermination,
  limitHeapGrowth,
  loadConfig,
  migrateDatabase,
  newWorkerId,
  startWorkerHeartbeat,
  workerDrainMs,
} from "../core/index.js";
import { graphileLogger } from "./graphile-logger.js";
import { startHealthServer } from "./health-server.js";
import { JobIntake } from "./job-intake.js";
import { startWorker } from "./runner.js";

// The worker process: as many as throughput needs, on any machines, all on one database.
limitHeapGrowth();
const config = loadConfig();
const workerId = newWorkerId();
const log = createLogger(config, { process: "worker", worker_id: workerId });
await migrateDatabase(config.databaseUrl);
const core = createCore(config, { logger: log });

const events = new EventEmitter() as WorkerEvents;
const intake = new JobIntake(events, config.workerPollIntervalMs);
const runner = await startWorker(core, { logger: graphileLogger(log), events, stall: intake });
const heartbeat = startWorkerHeartbeat(
  config.databaseUrl,
  workerId,
  config.workerHeartbeatIntervalMs,
  () => intake.takingJobs(),
  (error) => log.warn({ err: error }, "worker heartbeat failed"),
);
const health = await startHealthServer(core, () => ({
  jobs: intake.report(),
  ...(shutdown.stopping ? { shutdown: { ok: false, reason: "shutting down" } } : {}),
}));

// Jobs get SHUTDOWN_TIMEOUT_MS to finish before their abort signals fire; graphile-worker then releases them,
// within JOB_RELEASE_MS more (the shutdown line says both: jobs_ms and the whole drain_ms).
const shutdown = handleTermination(log, workerDrainMs(config.shutdownTimeoutMs), {
  async drain() {
    await heartbeat.stop();
    await runner.stop();
  },
  abandon: () => runner.kill(),
  async release() {
    await health.close();
    await core.close();
  },
}, { jobs_ms: config.shutdownTimeoutMs });

log.info({ concurrency: config.workerConcurrency, health_url: health.url }, "worker running");
runner.promise.catch((error: unknown) => {
  if (shutdown.stopping) return;
  log.fatal({ err: error }, "the job runner stopped unexpectedly");
  log.flush();
  process.exit(1);
});
