import type { Client, Tool } from "@modelcontextprotocol/client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_LIST_BUDGET_BYTES } from "../../mcp-server/tools/tool-report.js";
import { startMcpHarness, type McpHarness } from "./support.js";

// A newcomer agent's first calls, written from tools/list alone: the compact schemas, the examples they carry and
// the descriptions. Only what an agent writes itself comes from the test: its own words for a prompt and the URL of
// its own media. Every other value is read out of the listing, so a listing that stops saying which voice ids exist
// or what a canvas looks like fails here.

type Schema = { type?: string | string[]; enum?: unknown[]; properties?: Record<string, Schema>; items?: Schema; examples?: unknown[]; description?: string };

const OWN_WORDS = "A lighthouse on a cliff at dawn, with gulls over the waves.";
const OWN_MEDIA_URL = "https://example.com/my-photo.png";

// The value an agent writes for a property from its advertised schema.
function valueFor(name: string, schema: Schema): unknown {
  if (schema.examples?.length) return schema.examples[0];
  if (schema.enum?.length) return schema.enum[0];
  if (schema.type === "array" && schema.items) return [valueFor(name, schema.items)];
  // A media input: the object the listing shapes, pointing at the agent's own file.
  if (schema.type === "object" && schema.properties?.type?.enum?.includes("url")) return { type: "url", url: OWN_MEDIA_URL };
  // A value the description quotes (`auto` or a model id).
  const quoted = /`([^`]+)`/.exec(schema.description ?? "")?.[1];
  if (quoted) return quoted;
  if (schema.type === "string") return OWN_WORDS;
  throw new Error(`the listing gives no value for ${name}: ${JSON.stringify(schema)}`);
}

function requiredArguments(tool: Tool): Record<string, unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Schema>;
  const args: Record<string, unknown> = {};
  for (const name of tool.inputSchema.required ?? []) {
    args[name] = name === "client_request_id" ? randomUUID() : valueFor(name, properties[name] as Schema);
  }
  return args;
}

// An optional argument the description names with an example value: `canvas (e.g. {...})`.
function describedExample(tool: Tool, name: string): unknown {
  const example = new RegExp(`\\b${name} \\(e\\.g\\. (\\{[^)]*\\})\\)`).exec(tool.description ?? "")?.[1];
  if (!example) throw new Error(`${tool.name} shows no example of ${name}: ${tool.description}`);
  return JSON.parse(example);
}

let m: McpHarness;
let client: Client;
let tools: Tool[];
beforeAll(async () => {
  m = await startMcpHarness();
  client = await m.connect({ protocol: "2026-07-28" });
  tools = (await client.listTools()).tools;
});
afterAll(async () => m?.close());

const tool = (name: string) => tools.find((t) => t.name === name)!;

describe("first calls written from tools/list alone", () => {
  it(`fit a listing within ${TOOL_LIST_BUDGET_BYTES} bytes`, () => {
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(TOOL_LIST_BUDGET_BYTES);
  });

  const firstCalls: [string, (t: Tool) => Record<string, unknown>][] = [
    ["speech with a voice id the listing gives", (t) => requiredArguments(t)],
    ["an image with a canvas shaped as the listing shows", (t) => ({ ...requiredArguments(t), canvas: describedExample(t, "canvas") })],
    ["music with the model the listing quotes", (t) => requiredArguments(t)],
    ["a text-to-video clip", (t) => requiredArguments(t)],
    ["a question about an image", (t) => requiredArguments(t)],
  ];
  const toolNames = ["svc.speech.synthesize", "svc.images.generate", "svc.music.generate", "svc.videos.generate", "svc.images.analyze"];

  it.each(firstCalls.map(([what, write], i) => [what, toolNames[i]!, write] as const))("%s (%s) creates a task", async (_what, name, write) => {
    const args = write(tool(name));
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ object: "task", task_id: expect.stringMatching(/\S/) });
  });

  it("reads the voice id and the canvas from the listing, not from this test", () => {
    expect(requiredArguments(tool("svc.speech.synthesize")).voice).toMatch(/^[a-z]+_[a-z_]+$/);
    expect(describedExample(tool("svc.images.generate"), "canvas")).toMatchObject({ type: "preset" });
  });
});
