import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";
import { makeCheckout, shellEnv, stackPorts, startStack, type Stack } from "../start/checkout.js";

// The README's desktop host configuration for stdio, taken from the README itself and run as a host runs it:
// that command and those arguments, SVC_API_KEY as the only setting (the client adds what hosts inherit: PATH,
// HOME, USER, ...), from a directory outside the checkout, beside a running `npm start` of a fresh checkout.

const README = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");

interface HostEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

function readmeStdioEntry(): HostEntry {
  const blocks = [...README.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1] as string) as { mcpServers: Record<string, HostEntry> });
  // The desktop entry: `svc mcp`, with whatever flags the README gives it (--tool-names underscore for Claude Desktop).
  const entries = blocks.flatMap((b) => Object.values(b.mcpServers ?? {})).filter((e) => e.command !== undefined && e.args?.[1] === "mcp");
  expect(entries, "the README's stdio configuration").toHaveLength(1);
  return entries[0] as HostEntry;
}

let checkout: string;
let database: TestDatabase;
let stack: Stack;
let apiKey: string;
let restBase: string;

beforeAll(async () => {
  checkout = makeCheckout();
  database = await createTestDatabase();
  const ports = await stackPorts();
  restBase = `http://127.0.0.1:${ports.PORT}`;
  stack = startStack(checkout, shellEnv({ DATABASE_URL: database.url, ...ports }));
  await stack.waitFor("service ready");
  apiKey = readFileSync(path.join(checkout, ".data", "dev-api-key"), "utf8").trim();
}, 600_000);

afterAll(async () => {
  if (stack) {
    stack.interrupt();
    await stack.exited;
  }
  await database?.drop();
  if (checkout) rmSync(checkout, { recursive: true, force: true });
}, 60_000);

describe("svc mcp as the README configures a desktop host", () => {
  it("creates a speech task against the running npm start, and it succeeds", async () => {
    const entry = readmeStdioEntry();
    expect(Object.keys(entry.env)).toEqual(["SVC_API_KEY"]);
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args.map((arg) => arg.replace("/path/to/this/checkout", checkout)),
      env: { SVC_API_KEY: apiKey },
      cwd: tmpdir(),
      stderr: "pipe",
    });
    let diagnostics = "";
    transport.stderr?.on("data", (chunk: Buffer) => (diagnostics += chunk.toString("utf8")));
    const client = new Client({ name: "desktop-host", version: "1.0.0" });
    const began = Date.now();
    await client.connect(transport);
    console.log(`svc mcp over stdio connected in ${Date.now() - began} ms`);
    try {
      // The tools under the names the README's arguments choose (dotted, or underscored for strict hosts).
      const names = (await client.listTools()).tools.map((t) => t.name);
      const tool = (name: string) => names.find((listed) => listed.replace(/_/g, ".") === name) ?? name;
      const created = await client.callTool({
        name: tool("svc.speech.synthesize"),
        arguments: { client_request_id: randomUUID(), voice: "en_female_aria", input: "Hello from the README's host configuration." },
      });
      expect(created.isError, `${JSON.stringify(created)}\n${diagnostics}`).toBeFalsy();
      const taskId = (created.structuredContent as { task_id: string }).task_id;
      let status = "";
      for (let i = 0; i < 6 && status !== "succeeded" && status !== "failed"; i++) {
        const got = await client.callTool({ name: tool("svc.tasks.get"), arguments: { task_id: taskId, wait_seconds: 20 } });
        status = (got.structuredContent as { status: string }).status;
      }
      expect(status).toBe("succeeded");
      // The same task through the running REST server: it was made on npm start's database, for this key.
      const rest = await fetch(`${restBase}/v1/tasks/${taskId}`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(rest.status).toBe(200);
      expect(((await rest.json()) as { status: string }).status).toBe("succeeded");
    } finally {
      await client.close();
    }
  }, 180_000);
});
