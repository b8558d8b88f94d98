import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { admin, createCore, loadConfig, parseCredits, type Core } from "../core/index.js";
import { freePort, launch, waitForHttp, type BenchProcess } from "./processes.js";
import { serviceEnvironment } from "./service-env.js";
import { SETTINGS } from "./settings.js";

// The service as a deployment runs it, one process each: the vendor emulator (no added latency) standing in for
// every family, the REST server, and a worker that phases start and stop. The benchmark itself talks to the
// database through a small core of its own, to make tenants and to read what the processes did.

export interface RunningService {
  restUrl: string;
  emulatorUrl: string;
  // Where the filesystem artifact store of its processes keeps the bytes.
  artifactDir: string;
  workerConcurrency: number;
  rest: BenchProcess;
  emulator: BenchProcess;
  core: Core;
  startWorker(): Promise<BenchProcess>;
  stopWorker(): Promise<void>;
  newTenant(credits: string): Promise<{ tenantId: string; apiKey: string }>;
  close(): Promise<void>;
}

// `extraEnv` adds to the processes' environment what one run needs beyond the defaults.
export async function startService(
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
  workerConcurrency = SETTINGS.workerConcurrency,
): Promise<RunningService> {
  const artifactDir = await mkdtemp(path.join(tmpdir(), "svc-bench-artifacts-"));
  const emulatorPort = await freePort();
  const restPort = await freePort();
  const workerPort = await freePort();
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const env = {
    ...serviceEnvironment({ databaseUrl, artifactDir, restPort, emulatorPort, workerPort, workerConcurrency }),
    ...extraEnv,
  };
  const core = createCore(loadConfig(env), { dbPoolSize: 4 });
  const started: BenchProcess[] = [];
  let worker: BenchProcess | null = null;
  const stopAll = async () => {
    await Promise.all([worker?.stop(), ...started.map((p) => p.stop())]);
    await core.close();
    await rm(artifactDir, { recursive: true, force: true });
  };
  try {
    const emulator = launch("emulator", "emulator/main.ts", env);
    started.push(emulator);
    await waitForHttp(`${emulatorUrl}/healthz`, emulator);
    const rest = launch("rest", "rest-server/main.ts", env);
    started.push(rest);
    const restUrl = `http://127.0.0.1:${restPort}`;
    await waitForHttp(`${restUrl}/healthz`, rest);
    return {
      restUrl,
      emulatorUrl,
      artifactDir,
      workerConcurrency,
      rest,
      emulator,
      core,
      async startWorker() {
        if (worker) return worker;
        const launched = launch("worker", "worker/main.ts", env);
        worker = launched;
        // A worker is up once its health server answers (it starts that after its job runner).
        await waitForHttp(`http://127.0.0.1:${workerPort}/healthz`, launched);
        return launched;
      },
      async stopWorker() {
        await worker?.stop();
        worker = null;
      },
      async newTenant(credits) {
        const tenant = await admin.createTenant(core.db, core.ids, "bench tenant", parseCredits(credits));
        const key = await admin.createApiKey(core.db, core.ids, core.config.region, tenant.id);
        return { tenantId: tenant.id, apiKey: key.key };
      },
      close: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
