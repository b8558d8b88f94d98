import { ArtifactUrlSigner } from "./artifacts/signed-url.js";
import { callbackDeliveryParticipant } from "./callbacks/begin-delivery.js";
import { S3ArtifactStore } from "./artifacts/s3-store.js";
import { FilesystemArtifactStore, type ArtifactStore } from "./artifacts/store.js";
import type { Clock } from "./clock.js";
import type { Config, VendorFamily } from "./config.js";
import { connectDatabase, type Database, type Db, type ReadSql } from "./db/client.js";
import { defaultIds, type IdGenerator } from "./ids.js";
import { registerDatabaseGauges } from "./ops/database-gauges.js";
import { silentLogger, type Logger } from "./observability/logger.js";
import { createServiceMetrics, type ServiceMetrics } from "./observability/service-metrics.js";
import { ProviderRegistry } from "./providers/registry.js";
import type { RateLimitCounter } from "./rate-limits/counter.js";
import { createRateLimitCounter } from "./rate-limits/limiter.js";
import { GroupCommit } from "./db/group-commit.js";
import { admitBatch, type Admission, type AdmissionResult } from "./tasks/admission-batch.js";
import { finishBatch, type TaskEnding } from "./tasks/finish-batch.js";
import { TaskStarts } from "./tasks/task-starts.js";
import { TaskChangeHub } from "./tasks/task-changes.js";
import type { TaskRow } from "./tasks/repository.js";
import { PrincipalCache } from "./auth/principal-cache.js";
import { RetirementCache } from "./retirements/cache.js";

// Everything a use-case needs, built once per process. Clock and ids are injectable so tests control time.
export interface Core {
  config: Config;
  db: Db;
  // Prepared single-statement reads on connections of their own (core/db/client.ts).
  reads: ReadSql;
  clock: Clock;
  ids: IdGenerator;
  artifacts: ArtifactStore;
  signer: ArtifactUrlSigner;
  providers: ProviderRegistry;
  isFamilyLive(family: VendorFamily): boolean;
  // Whether a family's adapter can stop its running work (what a cancel of a running task needs), for the catalog.
  familyCancelsRunning(family: VendorFamily): boolean;
  // The process's JSON logger (silent unless the entry point gives one) and its Prometheus metrics.
  log: Logger;
  metrics: ServiceMetrics;
  // The shared request counters of the rate limits (Postgres or Redis).
  rateLimits: RateLimitCounter;
  // Task admissions, committed in groups (core/db/group-commit.ts, core/tasks/admission-batch.ts).
  admissions: GroupCommit<Admission, AdmissionResult>;
  // Task starts, those of one turn in one statement (core/tasks/task-starts.ts).
  starts: TaskStarts;
  // Task endings, committed in groups likewise (core/tasks/finish-batch.ts).
  finishes: GroupCommit<TaskEnding, TaskRow | null>;
  // API keys this process has accepted, forgotten when a key or tenant changes (core/auth/principal-cache.ts).
  principals: PrincipalCache;
  // The models' retirements in force (MODEL_RETIREMENTS and `svc model retire`), forgotten when one changes.
  retirements: RetirementCache;
  // Changes of tasks' status and progress, heard on one LISTEN connection (opened on first use) and fanned out.
  taskChanges: TaskChangeHub;
  close(): Promise<void>;
}

export interface CoreOverrides {
  clock?: Clock;
  ids?: IdGenerator;
  database?: Database;
  dbPoolSize?: number;
  logger?: Logger;
}

export function createCore(config: Config, overrides: CoreOverrides = {}): Core {
  const database = overrides.database ?? connectDatabase(config.databaseUrl, {
      max: overrides.dbPoolSize ?? config.databasePoolSize,
      queryTimeoutMs: config.databaseQueryTimeoutMs,
    });
  const clock = overrides.clock ?? (() => new Date());
  const metrics = createServiceMetrics();
  registerDatabaseGauges(metrics.registry, database.db, config.workerHeartbeatIntervalMs);
  const providers = new ProviderRegistry(config, metrics);
  const rateLimits = createRateLimitCounter(config, database.db);
  // Two admission transactions at once, one per direct connection: the next batch's BEGIN and reads go out while
  // the running one writes and commits (a tenant's balance row, locked by both, keeps their holds in order).
  const admissions = new GroupCommit<Admission, AdmissionResult>((group) => admitBatch(database.direct, group), 2);
  const ids = overrides.ids ?? defaultIds(clock);
  // The parts other areas play in every task's ending (core/tasks/finish-batch.ts).
  const finishParticipants = [callbackDeliveryParticipant(ids)];
  const finishes = new GroupCommit<TaskEnding, TaskRow | null>((group) => finishBatch(database.transitions, group, finishParticipants));
  const starts = new TaskStarts(database.transitions, () => providers.withAdapters(), clock);
  const principals = new PrincipalCache(database.direct);
  const retirements = new RetirementCache(database.db, database.direct, config.modelRetirements);
  const taskChanges = new TaskChangeHub(config.databaseUrl, config.databaseQueryTimeoutMs);
  return {
    config,
    db: database.db,
    reads: database.reads,
    clock,
    ids,
    artifacts: config.s3 ? new S3ArtifactStore(config.s3) : new FilesystemArtifactStore(config.artifactDir),
    signer: new ArtifactUrlSigner(config.publicBaseUrl, config.artifactUrlSecret, config.artifactUrlTtlSeconds),
    providers,
    isFamilyLive: (family) => providers.isLive(family),
    familyCancelsRunning: (family) => providers.get(family)?.supportsCancel === true,
    log: overrides.logger ?? silentLogger(),
    metrics,
    rateLimits,
    admissions,
    starts,
    finishes,
    principals,
    retirements,
    taskChanges,
    close: () =>
      Promise.all([admissions.drained(), finishes.drained()])
        .then(() => taskChanges.close())
        .then(() => principals.close())
        .then(() => retirements.close())
        .then(() => rateLimits.close())
        .then(() => database.close()),
  };
}
