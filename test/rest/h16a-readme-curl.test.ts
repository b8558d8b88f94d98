import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const README = await readFile(path.join(ROOT, "README.md"), "utf8");

// The shell blocks of the README's first speech task, as written: the first creates and waits, the second streams
// and quotes.
function speechBlocks(): string[] {
  const section = README.slice(README.indexOf("### A first speech task"), README.indexOf("### Managing tenants and keys"));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness({ worker: true });
  await h.startWorker();
  dir = await mkdtemp(path.join(tmpdir(), "readme-curl-"));
  await mkdir(path.join(dir, ".data"));
  await writeFile(path.join(dir, ".data", "dev-api-key"), h.apiKey);
});
afterAll(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("README: a first speech task", () => {
  it("works pasted whole into bash: the create waits for the end, the audio downloads and probes, the stream and quote answer", async () => {
    const blocks = speechBlocks();
    expect(blocks).toHaveLength(2);
    // Only the address changes: the harness listens on a port of its own.
    const script = blocks.join("\n").replace("B=http://127.0.0.1:8080", `B=${h.baseUrl}`);
    expect(script).not.toContain("uuidgen");
    const { stdout } = await run("bash", ["-euo", "pipefail", "-c", script], {
      cwd: dir,
      // The block's `require("@ffprobe-installer/ffprobe")` runs in the checkout, where npm installed it.
      env: { ...process.env, NODE_PATH: path.join(ROOT, "node_modules") },
      timeout: 120_000,
    });
    expect(stdout).toContain("succeeded");
    expect((await stat(path.join(dir, "speech.mp3"))).size).toBeGreaterThan(1000);
    expect(stdout).toMatch(/event: task\ndata: \{"object":"task"/);
    expect(stdout).toContain('"object":"quote"');
  });
});
