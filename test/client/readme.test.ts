import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";

// The README's client quick start and its callbacks block, as written, against a running service. Only the
// address changes (the harness listens on a port of its own), and the package name is pointed at the checkout's
// sources instead of an installed client/dist.
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

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness({ worker: true });
  dir = await mkdtemp(path.join(tmpdir(), "readme-client-"));
  await symlink(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
});
afterAll(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("README: the TypeScript client", () => {
  it("quick start type-checks under strict tsc and runs: the speech is written and its id printed", async () => {
    const [program] = blocks(section("### From TypeScript", "### Callbacks"), "ts");
    expect(program).toContain('from "@media-task-service/client"');
    const source = program!
      .replace('"@media-task-service/client"', JSON.stringify(path.join(ROOT, "client/src/index.js")))
      .replace('"http://127.0.0.1:8080"', JSON.stringify(h.baseUrl));
    await writeFile(path.join(dir, "quick-start.ts"), source);
    const compiled = await run(
      path.join(ROOT, "node_modules/.bin/tsc"),
      ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", "quick-start.ts"],
      { cwd: dir },
    ).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
    expect(compiled).toBe("");
    const { stdout } = await run(path.join(ROOT, "node_modules/.bin/tsx"), ["quick-start.ts"], { cwd: dir, env: { ...process.env, SVC_API_KEY: h.apiKey } });
    expect(stdout).toMatch(/^task_\S+ vendorA-speech-\S+ \d+\.\d{6}\n$/);
    expect((await stat(path.join(dir, "client-speech.mp3"))).size).toBeGreaterThan(1000);
  }, 180_000);
});

describe("README: callbacks", () => {
  it("the block works pasted whole into bash after the first one's variables", async () => {
    const [script] = blocks(section("### Callbacks", "A receiver in Node"), "sh");
    const { stdout } = await run("bash", ["-euo", "pipefail", "-c", `B=${h.baseUrl}\n${script}`], {
      cwd: dir,
      env: { ...process.env, SVC_API_KEY: h.apiKey },
      timeout: 120_000,
    });
    const answers = stdout.trim().split("\n");
    expect(answers[0]).toMatch(/^whsec_/);
    expect(stdout).toContain('"object":"callback_signing_key"');
    // The callback to example.com cannot be delivered from here (or is refused there): the task records why.
    expect(stdout).toMatch(/status: '(pending|retrying|delivered|failed)'/);
    const [rotated, listed, redelivered, retired] = answers.slice(-4).map((line) => JSON.parse(line));
    expect(rotated).toMatchObject({ object: "callback_signing_key", secret: expect.stringMatching(/^whsec_/) });
    expect(listed).toMatchObject({ object: "list", data: [{ id: rotated.id }] });
    // Another attempt while one is scheduled is refused, saying when; once attempts have settled it is accepted.
    expect(redelivered.error?.code ?? redelivered.object).toMatch(/^(conflict|task)$/);
    expect(retired).toMatchObject({ object: "callback_signing_key", id: rotated.id, status: "retired" });
    const hooked = JSON.parse(await readFile(path.join(dir, "hooked.json"), "utf8"));
    expect(hooked).toMatchObject({ status: "succeeded", callback: { url: "https://example.com/hooks/media" } });
  }, 120_000);
});
