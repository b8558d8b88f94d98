import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "./support.js";

// The MCP Inspector's CLI (2.12), as a developer points it at the server: one listing and one failing call,
// whose error must reach its output with code and param rather than an output-schema complaint.

const launcher = path.join(path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json")), "clients/launcher/build/index.js");

let m: McpHarness;
let home: string;
beforeAll(async () => {
  m = await startMcpHarness();
  home = await mkdtemp(path.join(os.tmpdir(), "inspector-"));
});
afterAll(async () => {
  await m?.close();
  await rm(home, { recursive: true, force: true });
});

function inspect(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const command = [launcher, "--cli", m.url, "--transport", "http", "--header", `Authorization: Bearer ${m.h.apiKey}`, ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, command, { timeout: 60_000, env: { ...process.env, HOME: home } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("MCP Inspector CLI", () => {
  it("lists the tools", async () => {
    const result = await inspect(["--method", "tools/list"]);
    expect(result.code, result.stderr).toBe(0);
    const names = (JSON.parse(result.stdout).tools as { name: string }[]).map((t) => t.name);
    expect(names).toContain("svc.speech.synthesize");
    expect(names).toContain("svc.tasks.quote");
  }, 90_000);

  it("shows a failing call's error with its code and param", async () => {
    const result = await inspect(["--method", "tools/call", "--tool-name", "svc.tasks.get", "--tool-arg", "task_id=task_00000000000000000000000000"]);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/does not match the tool's output schema/);
    const output = JSON.parse(result.stdout);
    expect(output.isError).toBe(true);
    expect(output.structuredContent.error).toMatchObject({ code: "task_not_found", jsonrpc_code: -32602 });
    const invalid = JSON.parse((await inspect(["--method", "tools/call", "--tool-name", "svc.tasks.list", "--tool-arg", "limit=0"])).stdout);
    expect(invalid.structuredContent.error).toMatchObject({ code: "invalid_request", param: "/limit" });
  }, 90_000);
});
