import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { sql } from "drizzle-orm";
import { Logger, type Runner } from "graphile-worker";
import { admin, createCore, loadConfig, parseCredits, type Core } from "../../core/index.js";
import type { Area } from "../../core/auth/areas.js";
import type { Clock } from "../../core/clock.js";
import { emulatorProviderEnv } from "../../core/config.js";
import { startEmulator } from "../../emulator/server.js";
import { buildRestApp } from "../../rest-server/app.js";
import { startWorker } from "../../worker/runner.js";
import { createTestDatabase } from "./databases.js";
import { ledgerInvariantViolations } from "./ledger-invariant.js";

// The key the harness encrypts callback signing secrets with, so tests can read what is stored at rest.
export const TEST_CALLBACK_SECRET_KEY = Buffer.alloc(32, 7).toString("base64");

export interface HarnessOptions {
  worker?: boolean;
  credits?: string;
  env?: Record<string, string>;
  // The service's clock, for tests that move time (a model's retirement date, say) without waiting.
  clock?: Clock;
}

export interface Harness {
  baseUrl: string;
  emulatorUrl: string;
  apiKey: string;
  tenantId: string;
  core: Core;
  databaseUrl: string;
  // The settings the harness runs on, for a service process a test starts beside it.
  env: Record<string, string>;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  newTenant(credits?: string, areas?: Area[]): Promise<{ tenantId: string; apiKey: string; keyId: string }>;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: string;
  apiKey?: string | null;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

// A whole service for one test file: a fresh database cloned from the migrated template, the vendor emulator,
// the REST server on an ephemeral port and (optionally) a real graphile-worker runner, all over real HTTP.
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const database = await createTestDatabase();
  const emulator = await startEmulator({ port: 0 });
  const artifactDir = await mkdtemp(path.join(tmpdir(), "svc-artifacts-"));
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    ARTIFACT_URL_SECRET: "test-secret-test-secret-test-secret-0123",
    CALLBACK_SECRET_ENCRYPTION_KEY: TEST_CALLBACK_SECRET_KEY,
    ARTIFACT_DIR: artifactDir,
    ...emulatorProviderEnv(emulator.url),
    PROVIDER_RETRY_BASE_MS: "50",
    // Test bodies name https://example.com media; on this closed network fetching them fails, and should fail fast.
    MEDIA_FETCH_TIMEOUT_MS: "2000",
    PORT: String(await freePort()),
    WORKER_CONCURRENCY: "4",
    // graphile-worker's abort at stop, as before SHUTDOWN_TIMEOUT_MS existed: a hanging job holds a close 5 s at most.
    SHUTDOWN_TIMEOUT_MS: "5000",
    ...options.env,
  };
  const config = loadConfig(env);
  const core = createCore(config, { dbPoolSize: 6, ...(options.clock ? { clock: options.clock } : {}) });
  const server = buildRestApp(core, { forceCloseConnections: true });
  await server.listen({ host: config.host, port: config.port });
  const address = config.publicBaseUrl;

  const tenant = await admin.createTenant(core.db, core.ids, "test tenant", parseCredits(options.credits ?? "100"));
  const key = await admin.createApiKey(core.db, core.ids, config.region, tenant.id);
  let runner: Runner | null = null;

  const harness: Harness = {
    baseUrl: address,
    emulatorUrl: emulator.url,
    apiKey: key.key,
    tenantId: tenant.id,
    core,
    databaseUrl: database.url,
    env,
    async request(method, urlPath, req = {}) {
      const headers: Record<string, string> = { ...req.headers };
      const apiKey = req.apiKey === undefined ? key.key : req.apiKey;
      if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
      if (req.idempotencyKey !== undefined) headers["idempotency-key"] = req.idempotencyKey;
      let body: string | undefined = req.rawBody;
      if (req.body !== undefined) body = JSON.stringify(req.body);
      if (body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
      const response = await fetch(`${address}${urlPath}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // binary or plain text stays as text
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async newTenant(credits = "100", areas) {
      const t = await admin.createTenant(core.db, core.ids, "another tenant", parseCredits(credits));
      const k = await admin.createApiKey(core.db, core.ids, config.region, t.id, { areas: areas ?? null });
      return { tenantId: t.id, apiKey: k.key, keyId: k.id };
    },
    async startWorker() {
      if (!runner) runner = await startWorker(core, { concurrency: 4, logger: new Logger(() => () => {}) });
    },
    async stopWorker() {
      if (runner) {
        await runner.stop();
        runner = null;
      }
    },
    // Also where every test file's credits are checked: the ledger invariant must hold once its tests are done.
    async close() {
      await timed("stop worker", () => harness.stopWorker());
      await timed("close REST server", () => server.close());
      const violations = await ledgerInvariantViolations(core.db).catch((error: Error) => [`not checked: ${error.message}`]);
      await timed("close core", () => core.close());
      await timed("close emulator", () => emulator.close());
      await timed("drop database", () => database.drop());
      await rm(artifactDir, { recursive: true, force: true });
      if (violations.length > 0) throw new Error(`the ledger invariant does not hold:\n${violations.join("\n")}`);
    },
  };
  if (options.worker) await harness.startWorker();
  return harness;
}

export async function waitForTask(
  harness: Harness,
  taskId: string,
  statuses: string[],
  options: { timeoutMs?: number; apiKey?: string } = {},
) {
  const until = Date.now() + (options.timeoutMs ?? 45_000);
  for (;;) {
    const response = await harness.request("GET", `/v1/tasks/${taskId}`, { apiKey: options.apiKey });
    if (statuses.includes(response.body?.status)) return response.body;
    if (Date.now() > until) throw new Error(`task ${taskId} is ${response.body?.status}, not ${statuses.join("/")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function ledgerEntries(harness: Harness, tenantId = harness.tenantId) {
  const rows = await harness.core.db.execute<{ kind: string; amount: string; task_id: string | null }>(
    sql`select kind, amount::text, task_id from credit_ledger where tenant_id = ${tenantId} order by id`,
  );
  return [...rows];
}

// granted = available + held + spent, read straight from the account row.
export async function balance(harness: Harness, tenantId = harness.tenantId) {
  const rows = await harness.core.db.execute<{ available: string; held: string; spent: string; granted: string }>(
    sql`select available::text, held::text, spent::text, granted::text from credit_accounts where tenant_id = ${tenantId}`,
  );
  const row = rows[0]!;
  return { available: BigInt(row.available), held: BigInt(row.held), spent: BigInt(row.spent), granted: BigInt(row.granted) };
}

export async function countRows(harness: Harness, query: ReturnType<typeof sql>): Promise<number> {
  const rows = await harness.core.db.execute<{ n: number }>(query);
  return Number(rows[0]?.n ?? 0);
}

// Teardown steps that take unusually long are named on stderr, so a slow hook says which part was slow.
async function timed(step: string, action: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  const warning = setTimeout(() => console.error(`harness: "${step}" still running after 5 s`), 5000);
  try {
    await action();
  } finally {
    clearTimeout(warning);
    if (Date.now() - started > 5000) console.error(`harness: "${step}" took ${Date.now() - started} ms`);
  }
}

// One more REST server for `core` (a second replica on the harness database, or one with settings of its own), on
// a port of its own. Closing it leaves `core` open.
export async function listenRest(core: Core): Promise<{ url: string; close(): Promise<void> }> {
  const app = buildRestApp(core, { forceCloseConnections: true });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
