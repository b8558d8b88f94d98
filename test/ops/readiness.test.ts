import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Logger, type Runner, type WorkerEvents } from "graphile-worker";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCore, loadConfig, startWorkerHeartbeat, type Core, type WorkerHeartbeat } from "../../core/index.js";
import { MIGRATIONS_FOLDER } from "../../core/db/migrate.js";
import { startMcpHttpServer, type McpHttpServer } from "../../mcp-server/http.js";
import { startHealthServer, type HealthServer } from "../../worker/health-server.js";
import { JobIntake } from "../../worker/job-intake.js";
import { startWorker } from "../../worker/runner.js";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";
import { freePort, listenRest, startHarness, TEST_CALLBACK_SECRET_KEY, type Harness } from "../support/harness.js";
import { eventually } from "../support/wait.js";

// Liveness and readiness of every process. Readiness: the database answers and carries every migration; REST and
// MCP also need a worker taking jobs (its heartbeat), the worker that it is taking jobs itself.
const HEARTBEAT_MS = 500;
let h: Harness;
let mcp: McpHttpServer;

beforeAll(async () => {
  h = await startHarness({ env: { WORKER_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_MS), MCP_PORT: String(await freePort()), WORKER_PORT: "0" } });
  mcp = await startMcpHttpServer(h.core);
});

afterAll(async () => {
  await mcp?.close();
  await h?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function probe(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  return eventually("the awaited answer never came", 10_000, async () => {
    const value = await read();
    return done(value) ? value : undefined;
  }, 25);
}

const mcpBase = () => mcp.url.replace(/\/mcp$/, "");

describe("REST and MCP readiness", () => {
  it("are live but not ready while no worker is taking jobs, and say which check fails", async () => {
    for (const base of [h.baseUrl, mcpBase()]) {
      expect(await probe(`${base}/healthz`)).toEqual({ status: 200, body: { ok: true } });
      const ready = await probe(`${base}/readyz`);
      expect(ready.status, base).toBe(503);
      expect(ready.body.ready).toBe(false);
      expect(ready.body.checks.database).toEqual({ ok: true });
      expect(ready.body.checks.migrations).toEqual({ ok: true });
      expect(ready.body.checks.workers).toMatchObject({ ok: false, alive: 0, workers: [] });
      expect(ready.body.checks.workers.reason).toContain("no worker");
    }
  });

  it("are ready while a worker beats, list it, and stop being ready the moment it stops", async () => {
    const heartbeat = startWorkerHeartbeat(h.databaseUrl, "worker-under-test", HEARTBEAT_MS, () => true, () => {});
    try {
      for (const base of [h.baseUrl, mcpBase()]) {
        const ready = await until(() => probe(`${base}/readyz`), (r) => r.status === 200);
        expect(ready.status, base).toBe(200);
        expect(ready.body.checks.workers).toMatchObject({ ok: true, alive: 1, workers: [{ worker_id: "worker-under-test" }] });
      }
      const metrics = await until(
        async () => (await fetch(`${h.baseUrl}/metrics`)).text(),
        (text) => /^svc_workers_alive 1$/m.test(text),
      );
      expect(metrics).toMatch(/^svc_workers_alive 1$/m);
    } finally {
      await heartbeat.stop();
    }
    expect((await probe(`${h.baseUrl}/readyz`)).status).toBe(503);
  });

  it("count a worker that stopped taking jobs as gone once its beats are three intervals old", async () => {
    let taking = true;
    const heartbeat: WorkerHeartbeat = startWorkerHeartbeat(h.databaseUrl, "worker-stalling", HEARTBEAT_MS, () => taking, () => {});
    try {
      expect((await until(() => probe(`${h.baseUrl}/readyz`), (r) => r.status === 200)).status).toBe(200);
      taking = false;
      const stale = await until(() => probe(`${h.baseUrl}/readyz`), (r) => r.status === 503);
      expect(stale.status).toBe(503);
      expect(stale.body.checks.workers.alive).toBe(0);
    } finally {
      await heartbeat.stop();
    }
  });
});

describe("readiness of a server whose database is not usable", () => {
  let database: TestDatabase;
  const servers: { rest: { close(): Promise<void> }; core: Core }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    for (const { rest, core } of servers) {
      await rest.close();
      await core.close();
    }
    await database?.drop();
  });

  async function restOn(databaseUrl: string): Promise<string> {
    const config = loadConfig({ DATABASE_URL: databaseUrl, ARTIFACT_URL_SECRET: "x".repeat(32), CALLBACK_SECRET_ENCRYPTION_KEY: TEST_CALLBACK_SECRET_KEY });
    const core = createCore(config, { dbPoolSize: 1 });
    const rest = await listenRest(core);
    servers.push({ rest, core });
    return rest.url;
  }

  it("names the newest migration a database lacks", async () => {
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    await sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`;
    await sql.end();
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
    const ready = await probe(`${await restOn(database.url)}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database).toEqual({ ok: true });
    expect(ready.body.checks.migrations).toEqual({ ok: false, reason: `the database is not migrated through ${journal.entries.at(-1)?.tag}` });
  });

  it("answers 503 naming the database when it cannot be reached", async () => {
    const base = await restOn(`postgres://postgres@127.0.0.1:${await freePort()}/nowhere`);
    expect((await probe(`${base}/healthz`)).status).toBe(200);
    const ready = await probe(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database.ok).toBe(false);
    expect(ready.body.checks.database.reason).toMatch(/ECONNREFUSED|connect/);
  });
});

describe("the worker's health server", () => {
  let runner: Runner | null = null;
  let server: HealthServer;

  beforeAll(async () => {
    const events = new EventEmitter() as WorkerEvents;
    const intake = new JobIntake(events, h.core.config.workerPollIntervalMs);
    runner = await startWorker(h.core, { concurrency: 1, events, logger: new Logger(() => () => {}) });
    server = await startHealthServer(h.core, () => ({ jobs: intake.report() }));
  });

  afterAll(async () => {
    await runner?.stop();
    await server?.close();
  });

  it("is ready while its runner takes jobs, and not once the runner stops", async () => {
    expect(await probe(`${server.url}/healthz`)).toEqual({ status: 200, body: { ok: true } });
    const ready = await until(() => probe(`${server.url}/readyz`), (r) => r.status === 200);
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ database: { ok: true }, migrations: { ok: true }, jobs: { ok: true, listening: true } });
    await runner?.stop();
    runner = null;
    const stopped = await probe(`${server.url}/readyz`);
    expect(stopped.status).toBe(503);
    expect(stopped.body.checks.jobs).toMatchObject({ ok: false, reason: "shutting down" });
    expect(await (await fetch(`${server.url}/metrics`)).text()).toContain("svc_jobs_queue_depth");
  });
});

describe("the emulator", () => {
  it("answers liveness, readiness and metrics", async () => {
    expect((await probe(`${h.emulatorUrl}/healthz`)).status).toBe(200);
    expect(await probe(`${h.emulatorUrl}/readyz`)).toEqual({ status: 200, body: { ready: true, checks: {} } });
    const metrics = await (await fetch(`${h.emulatorUrl}/metrics`)).text();
    expect(metrics).toMatch(/^svc_http_requests_total\{route="\/readyz",method="GET",status="200"\} 1$/m);
  });
});
