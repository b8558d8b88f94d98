// `npm run build`, and what `svc` runs when dist/ is missing or older than the sources: tsc over
// tsconfig.build.json, then a stamp whose time is when the build started, so an edit made during a build still
// counts as newer. Plain JavaScript because it must run before anything is compiled.
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");
const STAMP = path.join(DIST, ".build-stamp");
const LOCK = path.join(DIST, ".build-lock");
// The folders tsconfig.build.json compiles, and the files that change what it emits.
const SOURCE_DIRS = ["core", "cli", "scripts", "mcp-server", "rest-server", "worker", "emulator", "bench"];
const CONFIG_FILES = ["tsconfig.json", "tsconfig.build.json"];
const LOCK_GIVE_UP_MS = 5 * 60_000;

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

function newestSource(dir, since) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (newestSource(file, since)) return true;
    } else if (entry.name.endsWith(".ts") && (mtime(file) ?? 0) > since) {
      return true;
    }
  }
  return false;
}

// A stat of each source (about 15 ms for the whole tree): cheaper than asking tsc, which reads every file.
export function isStale(entry) {
  const built = mtime(STAMP);
  if (built === null || mtime(path.join(DIST, entry)) === null) return true;
  if (CONFIG_FILES.some((file) => (mtime(path.join(ROOT, file)) ?? 0) > built)) return true;
  return SOURCE_DIRS.some((dir) => newestSource(path.join(ROOT, dir), built));
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

// One build at a time per checkout: concurrent `svc` calls (a test suite, a shell loop) wait for the first.
// `action` learns whether it waited for another build.
function withLock(action) {
  mkdirSync(DIST, { recursive: true });
  let waited = false;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      waited = true;
      // A lock left by a build that was killed: older than any build takes.
      if (Date.now() - (mtime(LOCK) ?? Date.now()) > LOCK_GIVE_UP_MS) rmSync(LOCK, { recursive: true, force: true });
      sleep(200);
    }
  }
  try {
    return action(waited);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

// Returns tsc's exit status (0 when nothing needed doing). Its output goes to stderr: on `svc mcp` stdout is the protocol.
export function build({ onlyIfStale = null } = {}) {
  return withLock((waited) => {
    // A call that waited for another build runs what it built, even if a source changed meanwhile: one build per
    // call at most, never a queue of them while someone keeps editing.
    if (onlyIfStale && (!isStale(onlyIfStale) || (waited && mtime(path.join(DIST, onlyIfStale)) !== null))) return 0;
    const started = new Date();
    let tsc;
    try {
      tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    } catch {
      process.stderr.write("dist/ needs building and TypeScript is not installed: run `npm install` (with dev dependencies), then `npm run build`\n");
      return 1;
    }
    const result = spawnSync(process.execPath, [tsc, "-p", path.join(ROOT, "tsconfig.build.json")], {
      cwd: ROOT,
      stdio: ["ignore", process.stderr, process.stderr],
    });
    // 2: type errors, but the JavaScript was emitted; anything else emitted nothing to stamp.
    if (result.status === 0 || result.status === 2) {
      closeSync(openSync(STAMP, "w"));
      utimesSync(STAMP, started, started);
    }
    return result.status ?? 1;
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(build());
}
