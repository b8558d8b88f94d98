import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { admin, createCore, loadConfig, parseCredits, type Core } from "../../core/index.js";
import { freePort, launch, waitForHttp, type BenchProcess } from "../processes.js";
import { serviceEnvironment } from "../service-env.js";
import { SOAK } from "./settings.js";

// The service as the soak runs it: the vendor emulator, one REST server and SOAK.workers worker processes, each
// its own process so that faults can kill one the way a machine dies (SIGKILL) and start it again. A small core of
// the soak's own makes tenants, reads what the processes did and asks the emulator about vendor jobs.

export interface Cluster {
  restUrl: string;
  emulatorUrl: string;
  core: Core;
  // The worker processes by slot, null while one is down.
  workers(): (BenchProcess | null)[];
  killWorker(slot: number): Promise<void>;
  startWorker(slot: number): Promise<void>;
  restartRest(): Promise<void>;
  newTenant(name: string, credits: string): Promise<{ tenantId: string; apiKey: string }>;
  close(): Promise<void>;
}

async function kill(process_: BenchProcess): Promise<void> {
  process.kill(process_.pid, "SIGKILL");
  await process_.exited;
}

export async function startCluster(databaseUrl: string): Promise<Cluster> {
  const artifactDir = await mkdtemp(path.join(tmpdir(), "svc-soak-artifacts-"));
  const [emulatorPort, restPort] = [await freePort(), await freePort()];
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const env = {
    ...serviceEnvironment({ databaseUrl, artifactDir, restPort, emulatorPort, workerPort: 0, workerConcurrency: SOAK.workerConcurrency }),
    // Receivers and media hosts are on loopback.
    OUTBOUND_ALLOW_LOOPBACK_HTTP: "true",
    // A killed worker's jobs go to the other within seconds; callback retries within the drain (0.1 s a "minute").
    WORKER_LOST_AFTER_MS: "5000",
    WORKER_POLL_INTERVAL_MS: "500",
    CALLBACK_RETRY_MINUTE_MS: "100",
    PROVIDER_RETRY_BASE_MS: "500",
    MEDIA_FETCH_FIRST_BYTE_TIMEOUT_MS: "3000",
    MEDIA_FETCH_RATE_WINDOW_MS: "3000",
  };
  const core = createCore(loadConfig(env), { dbPoolSize: 4 });
  const restUrl = `http://127.0.0.1:${restPort}`;
  const workers: (BenchProcess | null)[] = Array.from({ length: SOAK.workers }, () => null);
  let rest: BenchProcess | null = null;
  const emulator = launch("emulator", "emulator/main.ts", env);
  await waitForHttp(`${emulatorUrl}/healthz`, emulator);

  const startRest = async () => {
    rest = launch("rest", "rest-server/main.ts", env);
    await waitForHttp(`${restUrl}/healthz`, rest);
  };
  // A worker takes jobs as soon as its runner is up; nothing waits for it (its health server has a port of its own).
  const startWorker = async (slot: number) => {
    workers[slot] = launch(`worker ${slot}`, "worker/main.ts", env);
  };
  await startRest();
  for (let slot = 0; slot < SOAK.workers; slot++) await startWorker(slot);

  return {
    restUrl,
    emulatorUrl,
    core,
    workers: () => workers,
    async killWorker(slot) {
      const worker = workers[slot];
      workers[slot] = null;
      if (worker) await kill(worker);
    },
    startWorker,
    async restartRest() {
      if (rest) await kill(rest);
      await startRest();
    },
    async newTenant(name, credits) {
      const tenant = await admin.createTenant(core.db, core.ids, name, parseCredits(credits));
      const key = await admin.createApiKey(core.db, core.ids, core.config.region, tenant.id);
      return { tenantId: tenant.id, apiKey: key.key };
    },
    async close() {
      await Promise.all([...workers.map((worker) => worker?.stop()), rest?.stop(), emulator.stop()]);
      await core.close();
      await rm(artifactDir, { recursive: true, force: true });
    },
  };
}
