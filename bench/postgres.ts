import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { startPostgresServer, type RunningServer } from "../scripts/embedded-postgres.js";
import { freePort } from "./processes.js";

// The Postgres a run measures against: the server of DATABASE_URL, or else an embedded server in a temporary
// directory. Either way the run works in a database of its own, dropped at the end with everything in it, and
// an embedded server is stopped and its directory deleted.

export interface BenchDatabase {
  url: string;
  // Which server, for the results: version and where it came from.
  server: string;
  // One more database of its own on the same server, dropped when this one closes if not before.
  another(): Promise<{ url: string; drop(): Promise<void> }>;
  close(): Promise<void>;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer<T>(serverUrl: string, run: (admin: postgres.Sql) => Promise<T>): Promise<T> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    return await run(admin);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

async function createDatabase(serverUrl: string, origin: string, stopServer: () => Promise<void>): Promise<BenchDatabase> {
  const newName = () => `svc_bench_${randomBytes(5).toString("hex")}`;
  const name = newName();
  const version = await onServer(serverUrl, async (admin) => {
    await admin.unsafe(`create database ${name}`);
    return (await admin<{ server_version: string }[]>`show server_version`)[0]?.server_version ?? "?";
  });
  const names = new Set([name]);
  const drop = (dropped: string) => onServer(serverUrl, (admin) => admin.unsafe(`drop database if exists ${dropped} with (force)`)).then(() => void names.delete(dropped));
  return {
    url: withDatabase(serverUrl, name),
    server: `PostgreSQL ${version.split(" ")[0]} (${origin})`,
    async another() {
      const other = newName();
      await onServer(serverUrl, (admin) => admin.unsafe(`create database ${other}`));
      names.add(other);
      return { url: withDatabase(serverUrl, other), drop: () => drop(other) };
    },
    async close() {
      try {
        for (const remaining of [...names]) await drop(remaining);
      } finally {
        await stopServer();
      }
    },
  };
}

export async function openBenchDatabase(log: (line: string) => void): Promise<BenchDatabase> {
  if (process.env.DATABASE_URL) return createDatabase(process.env.DATABASE_URL, "DATABASE_URL", async () => {});
  const directory = await mkdtemp(path.join(tmpdir(), "svc-bench-pg-"));
  // Postgres runs as its own user, which must be able to reach the data directory inside.
  await chmod(directory, 0o755);
  const port = await freePort();
  const removeDirectory = () => rm(directory, { recursive: true, force: true });
  log(`starting an embedded Postgres on port ${port} (set DATABASE_URL to use another server)`);
  let server: RunningServer;
  try {
    server = await startPostgresServer({ dataDir: path.join(directory, "data"), port, logFile: path.join(directory, "postgres.log"), create: true, log: () => {} });
  } catch (error) {
    await removeDirectory();
    throw error;
  }
  const serverUrl = server.url;
  const stopServer = async () => {
    await server.stop();
    await removeDirectory();
  };
  try {
    return await createDatabase(serverUrl, "embedded", stopServer);
  } catch (error) {
    await stopServer();
    throw error;
  }
}
