import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { admin, createCore, loadConfig, migrateDatabase, workerDrainMs } from "../core/index.js";
import { providerEnvNames, VENDOR_FAMILIES } from "../core/config.js";
import { bootstrapDevTenant, DEV_TENANT_CREDITS } from "../cli/bootstrap.js";
import { EMBEDDED_DIR, EmbeddedDatabaseRefused, embeddedUrl, reachable, startEmbedded, type RunningServer } from "./embedded-postgres.js";
import { DATA_DIR, DEV_KEY_FILE, localCallbackSecretKey, localSecret, PROJECT_ROOT, shown } from "./local-env.js";
import { localSigningKey } from "./local-oauth-key.js";
import { writeLocalSettings } from "./local-settings.js";

// `npm start`: the whole service on one machine — database (embedded unless DATABASE_URL is set), the vendor
// emulator, the worker, the REST and MCP servers, each its own process as a deployment would run them.
const log = (line: string) => console.log(`[start] ${line}`);

type Name = "emulator" | "worker" | "rest" | "mcp";
const children = new Map<Name, ChildProcess>();
let embedded: RunningServer | null = null;
let stopping = false;
let shutdownTimeoutMs = 10_000;

// Children run in process groups of their own, so a terminal's Ctrl-C (sent to the whole foreground group)
// reaches this process alone, and each child is stopped once, in order: a child that got the signal directly
// as well would take ours as a second signal and exit without draining.
function launch(name: Name, file: string, env: Record<string, string | undefined>): ChildProcess {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "dist", file)], { env, stdio: ["ignore", "inherit", "inherit"], detached: true });
  child.on("exit", (code, signal) => {
    if (stopping) log(`${name} stopped (${signal ?? code})`);
    else {
      log(`${name} exited (${signal ?? code}); stopping everything`);
      void shutdown(1);
    }
  });
  children.set(name, child);
  return child;
}

// A process that ends without the stop below (an uncaught error) takes its children with it.
process.on("exit", () => {
  for (const child of children.values()) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

function running(child: ChildProcess | undefined): child is ChildProcess {
  return child !== undefined && child.exitCode === null && child.signalCode === null;
}

async function stopGroup(names: Name[], deadline: number): Promise<void> {
  const group = names.map((name) => children.get(name)).filter(running);
  if (group.length === 0) return;
  log(`stopping ${names.filter((name) => running(children.get(name))).join(" and ")}`);
  const exits = group.map((child) => new Promise<void>((resolve) => child.once("exit", () => resolve())));
  for (const child of group) child.kill("SIGTERM");
  const late = setTimeout(() => {
    for (const child of group.filter(running)) {
      log(`pid ${child.pid} did not stop in time; killing it`);
      child.kill("SIGKILL");
    }
  }, Math.max(0, deadline - Date.now()));
  await Promise.all(exits);
  clearTimeout(late);
}

// One stop however many signals arrive (a terminal's Ctrl-C may come both directly and through npm): servers first
// (no new work), then the worker (its running jobs finish or are released), then the emulator, then the database.
// The servers drain within SHUTDOWN_TIMEOUT_MS, the worker within that and the time to release the jobs it aborts
// (workerDrainMs); a second more, and what is left is killed.
async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await stopGroup(["rest", "mcp"], Date.now() + shutdownTimeoutMs + 1000);
  const deadline = Date.now() + workerDrainMs(shutdownTimeoutMs) + 1000;
  await stopGroup(["worker"], deadline);
  await stopGroup(["emulator"], Math.max(deadline, Date.now() + 2000));
  if (embedded) {
    log("stopping the embedded Postgres");
    await embedded.stop();
    log("database stopped");
  }
  process.exit(code);
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void shutdown(0));

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      // Bounded: something else listening on the port may accept and never answer.
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}

async function database(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  // Another `npm start` of this checkout may be running it already.
  if (await reachable(embeddedUrl())) return embeddedUrl();
  embedded = await startEmbedded({ create: true, log });
  return embedded.url;
}

// The key exists from here on: saved and shown before anything else can fail.
async function announceKey(created: { tenantId: string; key: string } | null, tenantId: string | undefined): Promise<void> {
  if (created) {
    await writeFile(DEV_KEY_FILE, `${created.key}\n`, { mode: 0o600 });
    log("");
    log(`first start: created tenant ${created.tenantId} with ${DEV_TENANT_CREDITS} credits and this API key (saved in ${shown(DEV_KEY_FILE)}):`);
    log("");
    log(`    export SVC_API_KEY=${created.key}`);
    log("");
  } else if (!existsSync(DEV_KEY_FILE) && tenantId) {
    log(`this database has tenants but no ${shown(DEV_KEY_FILE)} (a first start stopped before writing it, or the database is shared);`);
    log("make a key for the development tenant and save it there with:");
    log("");
    log(`    npx svc key create ${tenantId} --name development --save ${shown(DEV_KEY_FILE)}`);
    log("");
  }
}

async function main(): Promise<void> {
  const databaseUrl = await database();
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    ARTIFACT_URL_SECRET: await localSecret(),
    CALLBACK_SECRET_ENCRYPTION_KEY: await localCallbackSecretKey(),
    OAUTH_SIGNING_KEY: await localSigningKey(),
    ARTIFACT_DIR: path.resolve(process.env.ARTIFACT_DIR ?? path.join(DATA_DIR, "artifacts")),
  };
  // graphile-worker keeps a connection for each slot it fills at start: 16 slots (the deployment default) left 16
  // idle connections on a laptop; a local stack needs a few.
  env.WORKER_CONCURRENCY ??= "4";
  // Hosts that know only the MCP URL sign in through the built-in authorization server.
  env.OAUTH_SERVER ??= "true";
  const emulatorUrl = `http://127.0.0.1:${process.env.EMULATOR_PORT ?? "4010"}`;
  const emulated: string[] = [];
  for (const family of VENDOR_FAMILIES) {
    const names = providerEnvNames(family);
    if (!env[names.baseUrl]) {
      env[names.baseUrl] = `${emulatorUrl}/${family}`;
      env[names.apiKey] = "emulator";
      emulated.push(family);
    }
  }
  const config = loadConfig(env);
  shutdownTimeoutMs = config.shutdownTimeoutMs;
  // What `svc` (and `svc mcp` started by a desktop host) reads to act on this same service.
  await writeLocalSettings(
    { ...env, PUBLIC_BASE_URL: config.publicBaseUrl, MCP_PUBLIC_URL: config.mcp.publicUrl },
    embedded || databaseUrl === embeddedUrl() ? EMBEDDED_DIR : null,
  );
  await migrateDatabase(config.databaseUrl);
  const core = createCore(config, { dbPoolSize: 1 });
  try {
    const created = await bootstrapDevTenant(core);
    const first = created ? null : (await admin.listTenants(core.db))[0];
    await announceKey(created, first?.id);
  } finally {
    await core.close();
  }

  if (emulated.length > 0) {
    launch("emulator", "emulator/main.js", { ...env, EMULATOR_PORT: new URL(emulatorUrl).port });
    await waitFor(`${emulatorUrl}/healthz`, 60_000);
    log(`vendor emulator at ${emulatorUrl} stands in for ${emulated.join(", ")}`);
  }
  launch("worker", "worker/main.js", env);
  launch("rest", "rest-server/main.js", env);
  launch("mcp", "mcp-server/main.js", env);
  await waitFor(`${config.publicBaseUrl}/healthz`, 60_000);
  await waitFor(`${config.mcp.publicUrl}/healthz`, 60_000);
  log(`MCP server at ${config.mcp.publicUrl}/mcp (Streamable HTTP; \`npx svc mcp\` serves stdio with these settings)`);
  log(`service ready at ${config.publicBaseUrl} (API key: ${shown(DEV_KEY_FILE)}; tenants and keys: \`npx svc --help\`)`);
  log(`web console: open ${config.publicBaseUrl}/ and paste the API key`);
}

try {
  await main();
} catch (error) {
  // The one sentence a person needs, not a stack trace, when the embedded database cannot run here.
  console.error(`[start] ${error instanceof EmbeddedDatabaseRefused ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  await shutdown(1);
}
