import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { admin, createCore, loadConfig, parseCredits } from "../../core/index.js";
import { emulatorProviderEnv } from "../../core/config.js";
import { startEmulator, type RunningEmulator } from "../../emulator/server.js";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";
import { emulatorRequests } from "../support/emulator-control.js";
import { freePort, TEST_CALLBACK_SECRET_KEY } from "../support/harness.js";
import { spawnEntry, type Entry, type Exit } from "../support/service-process.js";
import { eventually } from "../support/wait.js";

// Real service processes (the entry points a deployment runs, from their sources through the tsx loader) on
// one test database, with the vendor emulator in the test process. Their stdout is JSON log lines, parsed as they
// arrive.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LogLine = Record<string, any>;

export interface ServiceProcess {
  name: string;
  // The process's HTTP address (REST or MCP API, or the worker's health server).
  url: string;
  lines: LogLine[];
  exited: Promise<Exit>;
  waitForLine(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  // Its warnings and errors, for the message of a failed expectation.
  problems(): string;
  // SIGTERM, then the exit; SIGKILL if it has not exited after `timeoutMs`.
  terminate(timeoutMs?: number): Promise<Exit>;
}


function spawnService(name: string, entry: Entry, url: string, env: Record<string, string>): ServiceProcess {
  const spawned = spawnEntry(entry, env);
  const lines: LogLine[] = [];
  // Anything that was not a JSON line (stderr, tsx warnings), for failure messages.
  const otherOutput: string[] = [];
  let pending = "";
  spawned.child.stdout?.on("data", (chunk: string) => {
    pending += chunk;
    const complete = pending.split("\n");
    pending = complete.pop() ?? "";
    for (const text of complete.filter((l) => l.trim() !== "")) {
      try {
        lines.push(JSON.parse(text) as LogLine);
      } catch {
        otherOutput.push(text);
      }
    }
  });
  spawned.child.stderr?.on("data", (chunk: string) => otherOutput.push(chunk));
  return {
    name,
    url,
    lines,
    exited: spawned.exited,
    problems: () =>
      [...lines.filter((line) => ["warn", "error", "fatal"].includes(line.level)).map((line) => JSON.stringify(line)), ...otherOutput]
        .join("\n")
        .slice(0, 4000),
    waitForLine: (predicate, timeoutMs = 30_000) =>
      eventually(`${name} logged no such line (${otherOutput.join(" ").slice(0, 2000)})`, timeoutMs, () => lines.find(predicate)),
    async terminate(timeoutMs = 30_000) {
      if (spawned.running()) spawned.child.kill("SIGTERM");
      const timer = setTimeout(() => spawned.child.kill("SIGKILL"), timeoutMs);
      try {
        return await spawned.exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

// One database, one emulator, a shared artifact directory and one tenant; processes are started on demand.
export interface Deployment {
  database: TestDatabase;
  emulator: RunningEmulator;
  tenantId: string;
  apiKey: string;
  startRest(name: string, extra?: Record<string, string>): Promise<ServiceProcess>;
  startMcp(name: string, extra?: Record<string, string>): Promise<ServiceProcess>;
  startWorker(name: string, extra?: Record<string, string>): Promise<ServiceProcess>;
  close(): Promise<void>;
}

export async function startDeployment(options: { emulatorLatencyMs: number }) {
  const database = await createTestDatabase();
  const emulator = await startEmulator({ port: 0, latencyMs: options.emulatorLatencyMs });
  const artifactDir = await mkdtemp(path.join(tmpdir(), "svc-ops-artifacts-"));
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    ARTIFACT_URL_SECRET: "ops-test-secret-ops-test-secret-0123456789",
    CALLBACK_SECRET_ENCRYPTION_KEY: TEST_CALLBACK_SECRET_KEY,
    ARTIFACT_DIR: artifactDir,
    OUTBOUND_ALLOW_LOOPBACK_HTTP: "true",
    LOG_LEVEL: "info",
    // These processes share one Postgres server with the rest of the suite: small pools.
    DATABASE_POOL_SIZE: "2",
    WORKER_CONCURRENCY: "2",
    WORKER_POLL_INTERVAL_MS: "200",
    WORKER_HEARTBEAT_INTERVAL_MS: "300",
    ...emulatorProviderEnv(emulator.url),
  };
  const core = createCore(loadConfig(env), { dbPoolSize: 1 });
  const tenant = await admin.createTenant(core.db, core.ids, "ops tenant", parseCredits("1000"));
  const key = await admin.createApiKey(core.db, core.ids, core.config.region, tenant.id);
  await core.close();
  const processes: ServiceProcess[] = [];

  async function start(name: string, entry: Entry, portVariable: string, extra: Record<string, string>, ready: (url: string) => Promise<boolean>) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const service = spawnService(name, entry, url, { ...env, [portVariable]: String(port), ...extra });
    processes.push(service);
    await eventually(`${name} did not come up (${service.problems()})`, 45_000, async () => ((await ready(url)) ? true : undefined));
    return service;
  }
  const answers = async (url: string) => (await fetch(url)).ok;

  const deployment: Deployment = {
    database,
    emulator,
    tenantId: tenant.id,
    apiKey: key.key,
    startRest: (name, extra = {}) => start(name, "rest-server/main.ts", "PORT", extra, (url) => answers(`${url}/healthz`)),
    startMcp: (name, extra = {}) => start(name, "mcp-server/main.ts", "MCP_PORT", extra, (url) => answers(`${url}/healthz`)),
    // A worker is up once it says it is taking jobs.
    startWorker: (name, extra = {}) => start(name, "worker/main.ts", "WORKER_PORT", extra, (url) => answers(`${url}/readyz`)),
    async close() {
      await Promise.all(processes.map((service) => service.terminate(10_000)));
      await emulator.close();
      await database.drop();
      await rm(artifactDir, { recursive: true, force: true });
    },
  };
  return deployment;
}

// A speech request with its own Idempotency-Key, against any REST replica.
export async function createSpeechTask(restUrl: string, apiKey: string, key: string, body: Record<string, unknown>) {
  const response = await fetch(`${restUrl}/v1/audio/speech`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "idempotency-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { task_id: string; status: string } };
}

export async function readTask(restUrl: string, apiKey: string, taskId: string) {
  const response = await fetch(`${restUrl}/v1/tasks/${taskId}`, { headers: { authorization: `Bearer ${apiKey}` } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (await response.json()) as any;
}

export async function waitForTerminal(restUrl: string, apiKey: string, taskIds: string[], timeoutMs = 40_000) {
  return eventually(`not every task ended`, timeoutMs, async () => {
    const tasks = await Promise.all(taskIds.map((id) => readTask(restUrl, apiKey, id)));
    return tasks.every((task) => ["succeeded", "failed", "canceled"].includes(task.status)) ? tasks : undefined;
  });
}

// How many submissions the emulator received in all (every speech task submits exactly once when nothing is
// executed twice).
export async function emulatorSubmissions(emulatorUrl: string): Promise<number> {
  return (await emulatorRequests({ emulatorUrl })).length;
}
