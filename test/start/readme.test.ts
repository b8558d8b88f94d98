import { execFile, spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";
import { shellEnv, stackPorts, startStack, type Stack } from "./checkout.js";

// Every shell block of the README, pasted in order into a fresh clone, as a new user runs them: `npm start` in one
// terminal, the rest in another, one shell, so each block's variables serve the next. What stands in for the user:
// node_modules is linked from this checkout rather than installed again (npm install is what CI's own install
// runs); the stack uses this machine's Postgres through DATABASE_URL and free ports, as the README says a user may
// set them; the TypeScript program is saved where its block says; npm works offline, and npx finds tsx installed
// globally (a prefix of the test's) where it would fetch it. Blocks that are not the user's to paste here are named
// below with why. Nothing may be left in the checkout: scratch files go to the temporary directory the blocks ask
// for.

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

// The blocks a test cannot run, by the words they start with.
const NOT_RUN: Record<string, string> = {
  "npm test": "the suite this test is part of",
  "npm run bench": "five minutes on an idle machine, its own measurement",
  "npm run soak": "ten minutes of load and faults, its own check",
  "claude ": "it configures Claude Code on this machine",
};

const fence = (language: string) => new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g");

let clone: string;
let scratch: string;
let database: TestDatabase;
let stack: Stack | null = null;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "readme-"));
  clone = path.join(scratch, "clone");
  await run("git", ["clone", "--quiet", ROOT, clone]);
  // The README under test is this checkout's, committed or not.
  await copyFile(path.join(ROOT, "README.md"), path.join(clone, "README.md"));
  await symlink(path.join(ROOT, "node_modules"), path.join(clone, "node_modules"), "dir");
  database = await createTestDatabase();
}, 120_000);

afterAll(async () => {
  if (stack) {
    stack.interrupt();
    await stack.exited;
  }
  await database?.drop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
}, 60_000);

// npx finds a global tsx under this prefix, as it would find the one it fetches.
async function globalTsx(): Promise<string> {
  const prefix = path.join(scratch, "npm-global");
  await mkdir(path.join(prefix, "lib", "node_modules"), { recursive: true });
  await mkdir(path.join(prefix, "bin"));
  await symlink(path.join(ROOT, "node_modules", "tsx"), path.join(prefix, "lib", "node_modules", "tsx"), "dir");
  await symlink(path.join("..", "lib", "node_modules", "tsx", "dist", "cli.mjs"), path.join(prefix, "bin", "tsx"));
  return prefix;
}

describe("the README's shell blocks, in order, in a fresh clone", () => {
  it("run as pasted: the service starts, every request answers, nothing is left in the checkout", async () => {
    const readme = await readFile(path.join(clone, "README.md"), "utf8");
    const [first, ...blocks] = [...readme.matchAll(fence("sh"))].map((match) => match[1]!);
    expect(first).toBe("npm install\nnpm start\n");

    // The first terminal: npm start, build included, left running.
    const env = shellEnv({ ...(await stackPorts()), DATABASE_URL: database.url });
    stack = startStack(clone, env, ["npm", "start"]);
    await stack.waitFor("service ready", 300_000);

    // The second terminal: every other block in order, the program saved before the block that runs it.
    const [program] = [...readme.slice(readme.indexOf("### From TypeScript")).matchAll(fence("ts"))].map((match) => match[1]!);
    const skipped: string[] = [];
    const script = blocks
      .map((block) => {
        const reason = Object.entries(NOT_RUN).find(([start]) => block.trimStart().startsWith(start))?.[1];
        if (reason) {
          skipped.push(block.trim().split("\n")[0]!);
          return `# not run here (${reason})`;
        }
        const save = block.includes("quick-start.mts") ? `cat > "$P/quick-start.mts" <<'PROGRAM'\n${program}PROGRAM\n` : "";
        return save + block;
      })
      .join("\n");
    expect(skipped).toEqual(expect.arrayContaining(["npm test", "npm run bench"]));
    const home = path.join(scratch, "home");
    const temporary = path.join(scratch, "tmp");
    await Promise.all([mkdir(home), mkdir(temporary)]);
    const shell = spawnSync("bash", ["-euo", "pipefail", "-c", script], {
      cwd: clone,
      env: shellEnv({
        HOME: home,
        TMPDIR: temporary,
        npm_config_prefix: await globalTsx(),
        npm_config_cache: path.join(home, ".npm"),
        npm_config_offline: "true",
        npm_config_audit: "false",
        npm_config_fund: "false",
        npm_config_update_notifier: "false",
      }),
      encoding: "utf8",
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const output = `${shell.stdout}\n${shell.stderr}`;
    expect(shell.status, output).toBe(0);

    // A first speech task: it ended, its audio probed, then its stream and a quote.
    expect(shell.stdout).toMatch(/^succeeded$/m);
    expect(shell.stderr).toMatch(/Stream #0:0: Audio: mp3/);
    expect(shell.stdout).toMatch(/event: task\ndata: \{"object":"task"/);
    expect(shell.stdout).toContain('"object":"quote"');
    // Tenants and keys, the client's program, callbacks, a tenant's limits, a development token.
    expect(shell.stdout).toMatch(/"api_key":\s*"sk_/);
    expect(shell.stdout).toMatch(/^task_\S+ vendorA-speech-\S+ \d+\.\d{6}$/m);
    expect(shell.stdout).toMatch(/^whsec_/m);
    expect(shell.stdout).toContain('"object":"callback_signing_key"');
    expect(shell.stdout).toMatch(/"access_token":\s*"eyJ/);

    // The scratch files are in the temporary directories the blocks made, the checkout as it was cloned.
    const made = await readdir(temporary, { recursive: true });
    for (const name of ["speech.mp3", "client-speech.mp3"]) {
      const found = made.find((file) => path.basename(file) === name);
      expect(found, `${name} in ${temporary}`).toBeDefined();
      expect((await stat(path.join(temporary, found!))).size).toBeGreaterThan(1000);
    }
    const { stdout: status } = await run("git", ["status", "--porcelain"], { cwd: clone });
    expect(status.split("\n").filter((line) => line && line !== "?? node_modules" && line !== " M README.md")).toEqual([]);
  }, 600_000);
});
