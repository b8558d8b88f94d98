import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import connect from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, createCore, loadConfig, migrateDatabase, parseCredits, type Core } from "../../core/index.js";
import { emulatorProviderEnv } from "../../core/config.js";
import { startEmulator, type RunningEmulator } from "../../emulator/server.js";
import { startPostgresServer, type RunningServer, type ServerOptions } from "../../scripts/embedded-postgres.js";
import { ledgerKindsByTask } from "../ops/exactly-once.js";
import { freePort, TEST_CALLBACK_SECRET_KEY } from "../support/harness.js";
import { ledgerInvariantViolations } from "../support/ledger-invariant.js";
import { spawnEntry, type SpawnedEntry } from "../support/service-process.js";
import { eventually } from "../support/wait.js";

// The database restarted under load: a private Postgres (not the machine's, which other tests share) under a
// REST server and a worker, both real processes, while a client keeps creating speech tasks. The processes are
// never restarted: they must find the database again by themselves, and every task a 202 admitted must end.
let postgres: RunningServer;
let server: ServerOptions;
let dataDir: string;
let emulator: RunningEmulator;
let core: Core;
let rest: SpawnedEntry;
let worker: SpawnedEntry;
let restUrl: string;
let apiKey: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "svc-restart-"));
  // Run as root, the server runs as a user of its own, which must reach its data directory.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  server = { dataDir: path.join(dataDir, "postgres"), port, logFile: path.join(dataDir, "postgres.log"), create: true, log: () => {} };
  postgres = await startPostgresServer(server);
  const onServer = connect(postgres.url, { max: 1, onnotice: () => {} });
  await onServer`create database svc`;
  await onServer.end();
  const databaseUrl = `postgres://postgres:password@127.0.0.1:${port}/svc`;
  await migrateDatabase(databaseUrl);

  emulator = await startEmulator({ port: 0, latencyMs: 150 });
  const restPort = await freePort();
  restUrl = `http://127.0.0.1:${restPort}`;
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    ARTIFACT_URL_SECRET: "restart-test-secret-restart-test-secret-01",
    CALLBACK_SECRET_ENCRYPTION_KEY: TEST_CALLBACK_SECRET_KEY,
    ARTIFACT_DIR: path.join(dataDir, "artifacts"),
    ...emulatorProviderEnv(emulator.url),
    LOG_LEVEL: "warn",
    PROVIDER_RETRY_BASE_MS: "100",
    WORKER_POLL_INTERVAL_MS: "200",
    WORKER_LOST_AFTER_MS: "1000",
    DATABASE_QUERY_TIMEOUT_MS: "5000",
    WORKER_CONCURRENCY: "4",
  };
  core = createCore(loadConfig(env), { dbPoolSize: 1 });
  const tenant = await admin.createTenant(core.db, core.ids, "restart tenant", parseCredits("10000"));
  apiKey = (await admin.createApiKey(core.db, core.ids, core.config.region, tenant.id)).key;
  rest = spawnEntry("rest-server/main.ts", { ...env, PORT: String(restPort) });
  worker = spawnEntry("worker/main.ts", { ...env, WORKER_PORT: "0" });
  await eventually(`the REST server did not come up (${rest.output()})`, 45_000, async () => ((await fetch(`${restUrl}/healthz`)).ok ? true : undefined));
}, 120_000);

afterAll(async () => {
  await Promise.all([rest?.kill("SIGKILL"), worker?.kill("SIGKILL")]);
  await core?.close();
  await emulator?.close();
  await postgres?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Load {
  admitted: string[];
  // What every other answer was: an HTTP status with its error code, or the network failure.
  refused: Map<string, number>;
  stop(): Promise<void>;
}

// Clients creating speech tasks one after another, each with a new Idempotency-Key.
function startLoad(clients: number): Load {
  const load = { admitted: [] as string[], refused: new Map<string, number>() };
  let running = true;
  let sequence = 0;
  const client = async () => {
    while (running) {
      const key = `restart-${sequence++}`;
      try {
        const response = await fetch(`${restUrl}/v1/audio/speech`, {
          method: "POST",
          headers: { authorization: `Bearer ${apiKey}`, "idempotency-key": key, "content-type": "application/json" },
          body: JSON.stringify({ voice: "en_female_aria", input: `Request ${key}.` }),
          signal: AbortSignal.timeout(10_000),
        });
        const body = (await response.json()) as { task_id?: string; error?: { code: string } };
        if (response.status === 202 && body.task_id) load.admitted.push(body.task_id);
        else load.refused.set(`${response.status} ${body.error?.code}`, (load.refused.get(`${response.status} ${body.error?.code}`) ?? 0) + 1);
      } catch (error) {
        load.refused.set(String((error as Error).message), (load.refused.get(String((error as Error).message)) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const clientsDone = Promise.all(Array.from({ length: clients }, client));
  return {
    ...load,
    async stop() {
      running = false;
      await clientsDone;
    },
  };
}

async function taskStatuses(taskIds: string[]): Promise<Map<string, string>> {
  const statuses = new Map<string, string>();
  await Promise.all(
    taskIds.map(async (taskId) => {
      const response = await fetch(`${restUrl}/v1/tasks/${taskId}`, { headers: { authorization: `Bearer ${apiKey}` } });
      statuses.set(taskId, ((await response.json()) as { status: string }).status);
    }),
  );
  return statuses;
}

describe("the database restarted under load", () => {
  it("loses no admitted task: the servers and the worker reconnect by themselves and every task ends", async () => {
    const load = startLoad(4);
    await eventually("no task was admitted before the restart", 20_000, async () => (load.admitted.length >= 10 ? true : undefined));
    await postgres.stop();
    const admittedBeforeRestart = load.admitted.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    postgres = await startPostgresServer({ ...server, create: false });
    await eventually("the REST server admitted too little after the restart", 30_000, async () =>
      load.admitted.length >= admittedBeforeRestart + 10 ? true : undefined,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: ${load.admitted.length - admittedBeforeRestart} admitted, refused ${JSON.stringify([...load.refused])}`);
    });
    await load.stop();

    const admitted = [...load.admitted];
    const ended = await eventually(
      "not every admitted task ended",
      60_000,
      async () => {
        const statuses = await taskStatuses(admitted);
        return [...statuses.values()].every((status) => status === "succeeded" || status === "failed") ? statuses : undefined;
      },
    ).catch(async (error: Error) => {
      const statuses = await taskStatuses(admitted);
      const open = [...statuses].filter(([, status]) => status === "queued" || status === "running");
      throw new Error(`${error.message}: ${JSON.stringify(open)}; worker: ${worker.output().slice(-3000)}`);
    });
    expect([...ended.values()].filter((status) => status !== "succeeded")).toEqual([]);

    const kindsByTask = await ledgerKindsByTask(core.config.databaseUrl, admitted);
    expect(admitted.filter((taskId) => kindsByTask.get(taskId)?.join() !== "hold,capture")).toEqual([]);
    expect(await ledgerInvariantViolations(core.db)).toEqual([]);
    // Neither process was restarted: the same ones are still serving.
    expect([rest.running(), worker.running()]).toEqual([true, true]);
  }, 150_000);
});
