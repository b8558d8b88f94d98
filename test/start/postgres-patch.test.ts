import { execFile } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

// The install's patch of postgres.js (scripts/patch-postgres.js, npm's postinstall), run in a project of its own
// whose node_modules/postgres is this checkout's (patched on install) or its published files, which `git apply -R`
// of the patch gives back: the patch goes onto published 3.4.9 and a second install leaves it as it is, while
// another version, or a file changed otherwise, fails the install and is left untouched.
const ROOT = path.resolve(import.meta.dirname, "../..");
const PATCH = path.join(ROOT, "patches", "postgres+3.4.9.patch");
const FILES = ["src/connection.js", "src/index.js", "cjs/src/connection.js", "cjs/src/index.js", "cf/src/connection.js", "cf/src/index.js"];
const run = promisify(execFile);
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

async function project(state: "published" | "patched"): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-postgres-patch-"));
  made.push(dir);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "patch-check", private: true }));
  cpSync(path.join(ROOT, "patches"), path.join(dir, "patches"), { recursive: true });
  cpSync(path.join(ROOT, "node_modules", "postgres"), path.join(dir, "node_modules", "postgres"), { recursive: true });
  if (state === "published") await run("git", ["apply", "-R", PATCH], { cwd: dir });
  return dir;
}

async function install(dir: string): Promise<{ code: number; output: string }> {
  return run(process.execPath, [path.join(ROOT, "scripts", "patch-postgres.js")], { cwd: dir }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );
}

const contents = (root: string) => FILES.map((file) => readFileSync(path.join(root, "node_modules", "postgres", file), "utf8"));

describe("the postgres.js patch at install", () => {
  it("patches published 3.4.9 as this checkout was patched, and a second install changes nothing", async () => {
    const dir = await project("published");
    expect(contents(dir)).not.toEqual(contents(ROOT));
    expect((await install(dir)).code).toBe(0);
    expect(contents(dir)).toEqual(contents(ROOT));
    expect((await install(dir)).code).toBe(0);
    expect(contents(dir)).toEqual(contents(ROOT));
  });

  it("refuses a version it was not made for, naming both", async () => {
    const dir = await project("published");
    const manifest = path.join(dir, "node_modules", "postgres", "package.json");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace('"version": "3.4.9"', '"version": "3.4.10"'));
    const before = contents(dir);
    const { code, output } = await install(dir);
    expect(code).toBe(1);
    expect(output).toContain("postgres 3.4.10 is installed, but patches/postgres+3.4.9.patch was made and checked for 3.4.9 only");
    expect(contents(dir)).toEqual(before);
  });

  it("refuses a file that is neither as published nor as patched, and patches no other", async () => {
    const dir = await project("published");
    appendFileSync(path.join(dir, "node_modules", "postgres", "cjs", "src", "index.js"), "\n// changed by hand\n");
    const before = contents(dir);
    const { code, output } = await install(dir);
    expect(code).toBe(1);
    expect(output).toContain("node_modules/postgres/cjs/src/index.js is neither postgres 3.4.9 as published nor as");
    expect(contents(dir)).toEqual(before);
  });
});
