import type { Client, JsonSchemaType } from "@modelcontextprotocol/client";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITIES } from "../../core/index.js";
import { startMcpHttpServer } from "../../mcp-server/http.js";
import { renderMcpToolsDoc, TOOL_LIST_BUDGET_BYTES } from "../../mcp-server/tools/tool-report.js";
import { freePort, PROTOCOLS, startMcpHarness, toolError, type McpHarness } from "./support.js";

// What an agent sees before calling anything: the server's instructions and tools/list, over Streamable HTTP in
// both protocol revisions.

const SPEC_TOOLS = [
  "svc.speech.synthesize",
  "svc.voices.list",
  "svc.voices.clone",
  "svc.music.generate",
  "svc.models.list",
  "svc.tasks.get",
  "svc.tasks.list",
  "svc.assets.upload",
];

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness();
});
afterAll(async () => m?.close());

describe.each(PROTOCOLS)("protocol %s", (protocol) => {
  let client: Client;
  beforeAll(async () => {
    client = await m.connect({ protocol });
  });

  it("negotiates this revision and tells agents to submit once, then poll svc.tasks.get", () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(protocol);
    const instructions = client.getInstructions() ?? "";
    expect(instructions).toContain("svc.tasks.get");
    expect(instructions).toMatch(/Never resubmit the work while its task is queued or running/);
    expect(instructions).toContain("client_request_id");
  });

  it("lists SPEC.md's eight tools, one per task-creating capability and cancel, each titled and described", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of SPEC_TOOLS) expect(names).toContain(name);
    for (const capability of CAPABILITIES) expect(names).toContain(capability.tool.name);
    expect(names).toContain("svc.tasks.cancel");
    expect(new Set(names).size).toBe(names.length);
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/\S/);
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type, tool.name).toBe("object");
      // Results are objects with their JSON as the first text content; no output schema is advertised.
      expect(tool.outputSchema, tool.name).toBeUndefined();
    }
  });

  it("advertises open create schemas that accept each capability's example with a client_request_id, and refuse it without", async () => {
    const { tools } = await client.listTools();
    const validator = new AjvJsonSchemaValidator();
    for (const capability of CAPABILITIES) {
      const tool = tools.find((t) => t.name === capability.tool.name)!;
      expect(tool.inputSchema.required, tool.name).toContain("client_request_id");
      const validate = validator.getValidator(tool.inputSchema as JsonSchemaType);
      expect(validate({ client_request_id: "id-1", ...capability.example }).valid, tool.name).toBe(true);
      expect(validate(capability.example).valid, tool.name).toBe(false);
      // Open, so a host that checks arguments lets the named, untyped ones through: the server judges them.
      expect(validate({ client_request_id: "id-1", ...capability.example, seed: 7 }).valid, tool.name).toBe(true);
    }
    for (const tool of tools) expect(() => validator.getValidator(tool.inputSchema as JsonSchemaType), tool.name).not.toThrow();
  });

  it("names every argument of a create tool: typed in its schema, in its description, or for all of them in the instructions", async () => {
    const { tools } = await client.listTools();
    const instructions = client.getInstructions() ?? "";
    // Shared options are spelled out once, by the first tool that takes them, and named as a group elsewhere.
    const videoOptions = /the video options \(([^)]*)\)/.exec(JSON.stringify(tools))?.[1]?.split(", ") ?? [];
    expect(videoOptions).toContain("duration");
    for (const common of ["metadata", "callback_url", "callback_signing_key_id"]) expect(instructions).toContain(common);
    for (const capability of CAPABILITIES) {
      const tool = tools.find((t) => t.name === capability.tool.name)!;
      const complete = (await client.callTool({ name: "svc.models.list", arguments: { capability: capability.id } })).structuredContent as {
        tool: { name: string; arguments: { properties: Record<string, unknown> }; example: Record<string, unknown> };
      };
      expect(complete.tool.name).toBe(capability.tool.name);
      for (const name of Object.keys(complete.tool.arguments.properties)) {
        if (["metadata", "callback_url", "callback_signing_key_id"].includes(name)) continue;
        const named = name in (tool.inputSchema.properties ?? {}) || new RegExp(`\\b${name}\\b`).test(tool.description!);
        const grouped = tool.description!.includes("the video options") && videoOptions.includes(name);
        expect(named || grouped, `${tool.name} ${name}`).toBe(true);
      }
      const validate = new AjvJsonSchemaValidator().getValidator(complete.tool.arguments as unknown as JsonSchemaType);
      expect(validate(complete.tool.example).valid, tool.name).toBe(true);
      expect(validate({ ...complete.tool.example, surprise: true }).valid, tool.name).toBe(false);
    }
  });

  it(`keeps tools/list within ${TOOL_LIST_BUDGET_BYTES} bytes, every input an object schema with every property described`, async () => {
    const { tools } = await client.listTools();
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(TOOL_LIST_BUDGET_BYTES);
    for (const tool of tools) {
      const schema = tool.inputSchema as Record<string, unknown>;
      expect(schema.type, tool.name).toBe("object");
      for (const combinator of ["oneOf", "anyOf", "allOf"]) expect(schema[combinator], `${tool.name} ${combinator}`).toBeUndefined();
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: string }).description, `${tool.name} ${name}`).toMatch(/\S{3}/);
      }
    }
    const model = tools.find((t) => t.name === "svc.images.analyze")!.inputSchema.properties!.model as { description: string };
    expect(model.description).toContain("svc.models.list");
  });

  it("holds every argument to the complete schema, naming the one to change", async () => {
    const call = (args: Record<string, unknown>) => client.callTool({ name: "svc.videos.generate", arguments: { client_request_id: "v-1", prompt: "A fox.", ...args } });
    expect(toolError(await call({ duration: "long" }))).toMatchObject({ code: "invalid_request", param: "/duration" });
    expect(toolError(await call({ output_format: "avi" }))).toMatchObject({ code: "invalid_request", param: "/output_format" });
    expect(toolError(await call({ durations: 5 }))).toMatchObject({ code: "invalid_request", param: "/durations" });
  });

  it("answers a model's limits and prices with svc.models.list and model, and refuses an unknown model at /model", async () => {
    const found = (await client.callTool({ name: "svc.models.list", arguments: { capability: "svc.videos.generate", model: "vendorB-2" } })).structuredContent as {
      data: { id: string; constraints: unknown; prices: unknown[] }[];
      tool: { capability: string };
    };
    expect(found.tool.capability).toBe("text_to_video");
    expect(found.data).toHaveLength(1);
    expect(found.data[0]).toMatchObject({ id: "vendorB-2" });
    expect(found.data[0]!.constraints).toBeTruthy();
    expect(found.data[0]!.prices.length).toBeGreaterThan(0);
    expect(toolError(await client.callTool({ name: "svc.models.list", arguments: { model: "vendorZ-9" } }))).toMatchObject({
      code: "unsupported_model",
      param: "/model",
    });
  });

  it("answers an unknown tool with JSON-RPC's invalid params (-32602), not a tool result", async () => {
    const error = await client.callTool({ name: "svc.speech.sing", arguments: {} }).then(
      () => null,
      (e: unknown) => e as { code: number; message: string },
    );
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain("Unknown tool: svc.speech.sing");
  });

  it("annotates reads as read-only and creation as idempotent", async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ["svc.tasks.get", "svc.tasks.list", "svc.voices.list", "svc.models.list"]) {
      expect(byName.get(name)!.annotations, name).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    }
    for (const capability of CAPABILITIES) {
      expect(byName.get(capability.tool.name)!.annotations, capability.tool.name).toMatchObject({
        idempotentHint: true,
        destructiveHint: false,
      });
    }
    // Unset hints take MCP's defaults: not read-only, destructive, not idempotent.
    expect(byName.get("svc.tasks.cancel")!.annotations).toEqual({ idempotentHint: true });
    expect(byName.get("svc.assets.upload")!.annotations).toEqual({ destructiveHint: false, openWorldHint: false });
  });
});

it("keeps docs/mcp-tools.md equal to the tools (regenerate with npm run docs:mcp-tools)", () => {
  const file = readFileSync(path.resolve(import.meta.dirname, "../../docs/mcp-tools.md"), "utf8");
  expect(file).toBe(renderMcpToolsDoc());
});

describe("tool names per connection", () => {
  it("/mcp/underscore lists svc_<area>_<verb> only, names them so in descriptions, instructions and errors, and calls them", async () => {
    const client = await m.connect({ url: `${m.url}/underscore` });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of SPEC_TOOLS) expect(names).toContain(name.replaceAll(".", "_"));
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(tools.find((t) => t.name === "svc_voices_clone")!.description).toContain("svc_speech_synthesize");
    expect(JSON.stringify(tools)).not.toMatch(/svc\.[a-z]/);
    expect(client.getInstructions()).not.toMatch(/svc\.[a-z]/);
    const voices = await client.callTool({ name: "svc_voices_list", arguments: { limit: 1 } });
    expect(voices.isError).toBeFalsy();
    expect((voices.structuredContent as { data: unknown[] }).data).toHaveLength(1);
    const refused = await client.callTool({ name: "svc_speech_synthesize", arguments: { client_request_id: "n-1", voice: "en_female_aria", input: "x", model: "nope" } });
    expect(JSON.stringify(refused.structuredContent)).toContain("svc_models_list");
  });

  it("/mcp and /mcp/dotted list the canonical svc.<area>.<verb> names, and name tools in texts as hosts that rewrite dots show them too", async () => {
    for (const url of [m.url, `${m.url}/dotted`]) {
      const client = await m.connect({ url });
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of SPEC_TOOLS) expect(names, url).toContain(name);
      // Claude Code, Codex and Gemini CLI show svc_speech_synthesize whatever is listed.
      expect(tools.find((t) => t.name === "svc.voices.clone")!.description).toContain("svc.speech.synthesize (svc_speech_synthesize)");
      expect(client.getInstructions()).toContain("svc.tasks.get (svc_tasks_get)");
      const texts = JSON.stringify(tools.map(({ name: _name, ...rest }) => rest));
      for (const text of texts.match(/svc\.[a-z_]+\.[a-z_]+.{0,40}/g) ?? []) expect(text, url).toMatch(/^svc\.([a-z_]+)\.([a-z_]+) \(svc_\1_\2/);
    }
  });
});

describe("MCP_TOOL_NAMES", () => {
  it("both: lists each tool under both names", async () => {
    const port = await freePort();
    const config = m.h.core.config;
    const both = await startMcpHttpServer({
      ...m.h.core,
      config: { ...config, mcp: { ...config.mcp, port, publicUrl: `http://127.0.0.1:${port}`, toolNames: "both" } },
    });
    try {
      const client = await m.connect({ url: both.url, protocol: "2026-07-28" });
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("svc.tasks.get");
      expect(names).toContain("svc_tasks_get");
      expect(names.length).toBe(2 * new Set(names.map((n) => n.replaceAll(".", "_"))).size);
    } finally {
      await both.close();
    }
  });
});
