import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The README's client program type-checks under strict tsc as it says to save it: quick-start.mts in a project
// made by `npm init -y` (CommonJS, no "type": "module"), where `.mts` is what lets its top-level await stand. The
// package name is pointed at the checkout's sources instead of an installed client/dist. That it runs, as pasted
// after the blocks before it, is test/start/readme.test.ts's.
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const README = await readFile(path.join(ROOT, "README.md"), "utf8");

function section(from: string, to: string): string {
  const start = README.indexOf(from);
  const end = README.indexOf(to, start);
  expect(start, `README.md has no "${from}"`).toBeGreaterThanOrEqual(0);
  return README.slice(start, end);
}
const blocks = (text: string, language: string) => [...text.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1] as string);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "readme-client-"));
  await symlink(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ name: "my-project", version: "1.0.0", main: "index.js" }));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("README: the TypeScript client", () => {
  it("quick start type-checks under strict tsc as quick-start.mts in a CommonJS project", async () => {
    const text = section("### From TypeScript", "### Callbacks");
    expect(text).toContain("quick-start.mts");
    const [program] = blocks(text, "ts");
    expect(program).toContain('from "@media-task-service/client"');
    const source = program!.replace('"@media-task-service/client"', JSON.stringify(path.join(ROOT, "client/src/index.js")));
    await writeFile(path.join(dir, "quick-start.mts"), source);
    const compiled = await run(
      path.join(ROOT, "node_modules/.bin/tsc"),
      ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", "quick-start.mts"],
      { cwd: dir },
    ).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
    expect(compiled).toBe("");
  }, 120_000);
});
