// `npm run build`, and what `svc` runs when dist/ is missing or older than the sources: tsc over
// tsconfig.build.json, esbuild bundling the web console (console/ → dist/console) and the MCP task view
// (mcp-app/ → dist/mcp-app/task.html), then a stamp whose time is when the build started, so an edit made during a
// build still counts as newer. Plain JavaScript because it must run before anything is compiled.
import { spawnSync } from "node:child_process";
import { closeSync, copyFileSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");
const STAMP = path.join(DIST, ".build-stamp");
const LOCK = path.join(DIST, ".build-lock");
// The folders tsconfig.build.json compiles, and the files that change what it emits.
const SOURCE_DIRS = ["core", "cli", "scripts", "http-face", "mcp-server", "rest-server", "worker", "emulator", "bench", "console", "mcp-app"];
// .json: the console's examples.json, rewritten with its outputs.
const SOURCE_EXTENSIONS = [".ts", ".tsx", ".css", ".html", ".svg", ".json"];
const CONSOLE_SOURCE = path.join(ROOT, "console");
const CONSOLE_DIST = path.join(DIST, "console");
const CONSOLE_EXAMPLES = path.join(CONSOLE_SOURCE, "examples");
const TASK_APP_SOURCE = path.join(ROOT, "mcp-app");
const TASK_APP_PAGE = path.join(DIST, "mcp-app", "task.html");
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
    } else if (SOURCE_EXTENSIONS.includes(path.extname(entry.name)) && (mtime(file) ?? 0) > since) {
      return true;
    }
  }
  return false;
}

// A stat of each source (about 15 ms for the whole tree): cheaper than asking tsc, which reads every file.
export function isStale(entry) {
  const built = mtime(STAMP);
  if (built === null || [path.join(DIST, entry), path.join(CONSOLE_DIST, "index.html"), TASK_APP_PAGE].some((file) => mtime(file) === null)) return true;
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

// How both browser bundles are built: Preact pages as minified ES modules.
const PREACT_BUNDLE = { bundle: true, format: "esm", target: "es2022", jsx: "automatic", jsxImportSource: "preact", minify: true };

// The console's script and style sheet bundled by esbuild (Preact included), its page and icon copied beside
// them: static files the REST server serves at / (rest-server/routes/console-routes.ts). Type errors are tsc's
// business (`npm run typecheck` checks console/ with its own tsconfig); esbuild only strips the types. Returns 0
// or 1.
function buildConsole(require) {
  const esbuild = require("esbuild");
  rmSync(CONSOLE_DIST, { recursive: true, force: true });
  try {
    esbuild.buildSync({
      entryPoints: [path.join(CONSOLE_SOURCE, "main.tsx"), path.join(CONSOLE_SOURCE, "console.css")],
      outdir: CONSOLE_DIST,
      ...PREACT_BUNDLE,
      sourcemap: "linked",
      logLevel: "error",
    });
  } catch {
    return 1;
  }
  for (const name of readdirSync(CONSOLE_SOURCE)) {
    if ([".html", ".svg"].includes(path.extname(name))) copyFileSync(path.join(CONSOLE_SOURCE, name), path.join(CONSOLE_DIST, name));
  }
  // Try's examples and the outputs the service made of them (scripts/console-examples.ts), beside the page.
  for (const name of readdirSync(CONSOLE_EXAMPLES)) copyFileSync(path.join(CONSOLE_EXAMPLES, name), path.join(CONSOLE_DIST, name));
  return 0;
}

// The MCP task view as one self-contained page (MCP Apps hosts load nothing beside it): its script, Preact
// included, and its style sheet bundled by esbuild and written into mcp-app/task.html in place of their markers.
// Returns 0 or 1.
function buildTaskApp(require) {
  const esbuild = require("esbuild");
  let outputs;
  try {
    outputs = esbuild.buildSync({
      entryPoints: [path.join(TASK_APP_SOURCE, "main.tsx"), path.join(TASK_APP_SOURCE, "task-app.css")],
      outdir: path.dirname(TASK_APP_PAGE),
      ...PREACT_BUNDLE,
      write: false,
      logLevel: "error",
    }).outputFiles;
  } catch {
    return 1;
  }
  const text = (extension) => outputs.find((file) => file.path.endsWith(extension)).text.trim();
  // Inside <script>, "</script" would end the element early; in a string, "<\/script" means the same.
  const script = text(".js").replace(/<\/(script)/gi, "<\\/$1");
  const page = readFileSync(path.join(TASK_APP_SOURCE, "task.html"), "utf8")
    .replace("/* task-app.css */", () => text(".css"))
    .replace("/* main.js */", () => script);
  mkdirSync(path.dirname(TASK_APP_PAGE), { recursive: true });
  writeFileSync(TASK_APP_PAGE, page);
  return 0;
}

// Returns tsc's exit status (0 when nothing needed doing). Its output goes to stderr: on `svc mcp` stdout is the protocol.
export function build({ onlyIfStale = null } = {}) {
  return withLock((waited) => {
    // A call that waited for another build runs what it built, even if a source changed meanwhile: one build per
    // call at most, never a queue of them while someone keeps editing.
    if (onlyIfStale && (!isStale(onlyIfStale) || (waited && mtime(path.join(DIST, onlyIfStale)) !== null))) return 0;
    const started = new Date();
    const require = createRequire(import.meta.url);
    let tsc;
    try {
      tsc = require.resolve("typescript/bin/tsc");
    } catch {
      process.stderr.write("dist/ needs building and TypeScript is not installed: run `npm install` (with dev dependencies), then `npm run build`\n");
      return 1;
    }
    const result = spawnSync(process.execPath, [tsc, "-p", path.join(ROOT, "tsconfig.build.json")], {
      cwd: ROOT,
      stdio: ["ignore", process.stderr, process.stderr],
    });
    // Both bundles are built whatever became of the other, so one's error does not hide the other's.
    const bundleStatus = [buildConsole(require), buildTaskApp(require)].includes(1) ? 1 : 0;
    // 2: type errors, but the JavaScript was emitted; anything else emitted nothing to stamp.
    if ((result.status === 0 || result.status === 2) && bundleStatus === 0) {
      closeSync(openSync(STAMP, "w"));
      utimesSync(STAMP, started, started);
    }
    return (result.status ?? 1) || bundleStatus;
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(build());
}
