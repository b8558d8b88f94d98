import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { svc } from "../cli/svc-process.js";
import { ledgerEntries } from "../support/harness.js";
import { startMcpHarness, toolError, type McpHarness } from "./support.js";

// `svc mcp` as a real child process speaking MCP on stdio (what a desktop host runs), and `svc token` minting
// development tokens the HTTP server accepts. Both act on the harness' database; the harness' worker runs the tasks.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const svcBin = path.join(repoRoot, "bin/svc.js");

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness();
});
afterAll(async () => m?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

async function connectStdio(credential: string, protocol: "2025-11-25" | "2026-07-28", flags: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [svcBin, "mcp", ...flags],
    cwd: repoRoot,
    env: m.childEnv({ SVC_API_KEY: credential }),
    stderr: "pipe",
  });
  const client = new Client({ name: "desktop-host", version: "1.0.0" }, protocol === "2025-11-25" ? {} : { versionNegotiation: { mode: { pin: protocol } } });
  await client.connect(transport);
  return client;
}

describe.each(["2025-11-25", "2026-07-28"] as const)("npx svc mcp over stdio, protocol %s", (protocol) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectStdio(m.h.apiKey, protocol);
  }, 30_000);
  afterAll(async () => client?.close());

  it("lists the tools and runs a speech task: create, replay, conflict, wait, artifact", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(protocol);
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ["svc.speech.synthesize", "svc.tasks.get", "svc.tasks.list", "svc.assets.upload"]) expect(names).toContain(name);

    const id = randomUUID();
    const call = (input: string) =>
      client.callTool({ name: "svc.speech.synthesize", arguments: { client_request_id: id, voice: "en_female_aria", input } });
    const created = (await call("Hello from stdio.")).structuredContent as Any;
    expect(created).toMatchObject({ status: "queued", capability: "text_to_speech" });
    expect(((await call("Hello from stdio.")).structuredContent as Any).task_id).toBe(created.task_id);
    expect(toolError(await call("Other words."))).toMatchObject({ code: "idempotency_conflict", jsonrpc_code: -32000 });
    expect((await ledgerEntries(m.h)).filter((e) => e.task_id === created.task_id && e.kind === "hold")).toHaveLength(1);

    const done = await client.callTool({ name: "svc.tasks.get", arguments: { task_id: created.task_id, wait_seconds: 20 } });
    const task = done.structuredContent as Any;
    expect(task.status).toBe("succeeded");
    const link = (done.content as Any[]).find((c) => c.type === "resource_link");
    expect(link.uri).toBe(`svc://artifacts/${task.output.artifacts[0].artifact_id}`);
    const audio = await fetch(task.output.artifacts[0].url);
    expect(audio.status).toBe(200);
    expect(Buffer.from(await audio.arrayBuffer()).length).toBe(task.output.artifacts[0].byte_size);
  }, 30_000);

  it("answers invalid input with a structured invalid_request", async () => {
    const error = toolError(
      await client.callTool({ name: "svc.speech.synthesize", arguments: { client_request_id: randomUUID(), voice: "en_female_aria", input: "x", pitch: 3 } }),
    );
    expect(error).toMatchObject({ code: "invalid_request", param: "/pitch", jsonrpc_code: -32602 });
  });
});

describe("npx svc mcp --tool-names underscore", () => {
  it("lists every tool under a name hosts with strict name rules accept, and calls them", async () => {
    const client = await connectStdio(m.h.apiKey, "2025-11-25", ["--tool-names", "underscore"]);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("svc_speech_synthesize");
      for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect((await client.callTool({ name: "svc_voices_list", arguments: { limit: 1 } })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe("npx svc mcp credentials", () => {
  it("acts as the key's areas: a key without speech gets insufficient_scope", async () => {
    const tenant = await m.h.newTenant("1", ["tasks"]);
    const client = await connectStdio(tenant.apiKey, "2025-11-25");
    try {
      const error = toolError(
        await client.callTool({ name: "svc.speech.synthesize", arguments: { client_request_id: "a", voice: "en_female_aria", input: "x" } }),
      );
      expect(error.missing_scopes).toEqual(["speech:write"]);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("refuses to start with an invalid key, saying why on stderr and nothing on stdout", async () => {
    const result = await svc(["mcp"], { env: m.childEnv({ SVC_API_KEY: "sk_us_00000000000000000000000000000000" }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/unknown or has been revoked/);
    expect(result.stdout).toBe("");
  }, 30_000);
});

describe("npx svc token", () => {
  it("mints a development token with the chosen scopes that the MCP server accepts for that tenant", async () => {
    const result = await svc(["token", m.h.tenantId, "--scopes", "tasks:read", "--ttl", "120", "--json"], { env: m.childEnv() });
    expect(result.code, result.stderr).toBe(0);
    const minted = JSON.parse(result.stdout);
    expect(minted).toMatchObject({ token_type: "Bearer", expires_in: 120, scope: "tasks:read", audience: m.url, tenant_id: m.h.tenantId });
    const client = await m.connect({ credential: minted.access_token });
    expect((await client.callTool({ name: "svc.tasks.list", arguments: { limit: 1 } })).isError).toBeFalsy();
    const refused = toolError(
      await client.callTool({ name: "svc.speech.synthesize", arguments: { client_request_id: "b", voice: "en_female_aria", input: "x" } }),
    );
    expect(refused.missing_scopes).toEqual(["speech:write"]);
  }, 30_000);

  it("refuses an unknown scope and an unknown tenant", async () => {
    const [scope, tenant] = await Promise.all([
      svc(["token", m.h.tenantId, "--scopes", "everything"], { env: m.childEnv() }),
      svc(["token", "ten_missing"], { env: m.childEnv() }),
    ]);
    expect(scope.code).toBe(1);
    expect(scope.stderr).toMatch(/unknown scope/);
    expect(tenant.code).toBe(1);
    expect(tenant.stderr).toMatch(/no tenant/);
  }, 30_000);
});
