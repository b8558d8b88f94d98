import { spawn, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createCore, loadConfig, migrateDatabase } from "../core/index.js";
import { providerEnvNames, VENDOR_FAMILIES } from "../core/config.js";
import { bootstrapDevTenant, DEV_TENANT_CREDITS } from "../cli/bootstrap.js";
import { DATA_DIR, ensureDatabase, localCallbackSecretKey, localSecret, PROJECT_ROOT } from "./local-env.js";
import { localDevSigningKey } from "./local-oauth-key.js";

// `npm start`: the whole service on one machine — database (embedded unless DATABASE_URL is set), the vendor
// emulator, the REST server and the worker, each its own process as a deployment would run them.
const log = (line: string) => console.log(`[start] ${line}`);

const database = await ensureDatabase(log);
const env: Record<string, string | undefined> = {
  ...process.env,
  DATABASE_URL: database.url,
  ARTIFACT_URL_SECRET: await localSecret(),
  CALLBACK_SECRET_ENCRYPTION_KEY: await localCallbackSecretKey(),
  OAUTH_DEV_SIGNING_KEY: await localDevSigningKey(),
  ARTIFACT_DIR: process.env.ARTIFACT_DIR ?? path.join(DATA_DIR, "artifacts"),
};
const emulatorPort = process.env.EMULATOR_PORT ?? "4010";
const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
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
await migrateDatabase(config.databaseUrl);
const core = createCore(config, { dbPoolSize: 2 });
const created = await bootstrapDevTenant(core);
await core.close();

const children: ChildProcess[] = [];
let stopping = false;

function launch(name: string, file: string, extraEnv: Record<string, string> = {}): ChildProcess {
  // The compiled entry point (npm start builds first), run by node itself: no loader thread holding the sources,
  // and the process receiving signals is the one that drains.
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "dist", file.replace(/\.ts$/, ".js"))], {
    env: { ...env, ...extraEnv },
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.on("exit", (code, signal) => {
    if (!stopping) {
      log(`${name} exited (${signal ?? code}); stopping everything`);
      void shutdown(1);
    }
  });
  children.push(child);
  return child;
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
  await database.stop?.();
  process.exit(code);
}

process.once("SIGINT", () => void shutdown(0));
process.once("SIGTERM", () => void shutdown(0));

if (emulated.length > 0) {
  launch("emulator", "emulator/main.ts", { EMULATOR_PORT: emulatorPort });
  await waitFor(`${emulatorUrl}/healthz`, 30_000);
  log(`vendor emulator at ${emulatorUrl} stands in for ${emulated.join(", ")}`);
}
launch("worker", "worker/main.ts");
launch("rest", "rest-server/main.ts");
launch("mcp", "mcp-server/main.ts");
const base = config.publicBaseUrl;
await waitFor(`${base}/healthz`, 60_000);
await waitFor(`${config.mcp.publicUrl}/healthz`, 60_000);
log(`MCP server at ${config.mcp.publicUrl}/mcp (Streamable HTTP; \`npx svc mcp\` serves stdio)`);

if (created) {
  await writeFile(path.join(DATA_DIR, "dev-api-key"), `${created.key}\n`, { mode: 0o600 }).catch(() => undefined);
  log("");
  log(`first start: created tenant ${created.tenantId} with ${DEV_TENANT_CREDITS} credits and this API key (also in .data/dev-api-key):`);
  log("");
  log(`    export SVC_API_KEY=${created.key}`);
  log("");
  log(`try:  curl -s ${base}/v1/credits -H "Authorization: Bearer $SVC_API_KEY"`);
  log("the README walks through a speech task end to end; `npx svc --help` manages tenants and keys.");
} else {
  log(`service ready at ${base} (API key of the first start: .data/dev-api-key; more with \`npx svc key create\`)`);
}
