import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/client";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITIES, type Capability } from "../../core/index.js";
import { startMcpHarness, type McpHarness } from "../mcp/support.js";
import { balance, ledgerEntries, waitForTask, type Harness } from "../support/harness.js";

// The rules every task-creating endpoint shares, run over the whole capability table, on each surface that
// creates tasks: REST (POST with an Idempotency-Key) and MCP (the capability's tool with a client_request_id).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

let m: McpHarness;
let h: Harness;
let mcp: Client;
beforeAll(async () => {
  m = await startMcpHarness({ credits: "100000", worker: false });
  h = m.h;
  mcp = await m.connect();
});
afterAll(async () => m?.close());

// A create's outcome as the surface gives it: the task, or the error in SPEC.md's envelope (and on REST the status).
interface Created {
  task?: Any;
  error?: Any;
  httpStatus?: number;
}

interface Surface {
  name: string;
  create(capability: Capability, body: Record<string, unknown>, options?: { withoutKey?: boolean }): Promise<Created>;
  // How the surface refuses a create without its idempotency key.
  expectKeyRequired(created: Created): void;
}

const SURFACES: Surface[] = [
  {
    name: "REST",
    async create(capability, body, { withoutKey = false } = {}) {
      const response = await h.request("POST", capability.path, { body, ...(withoutKey ? {} : { idempotencyKey: randomUUID() }) });
      return response.status === 202 ? { task: response.body, httpStatus: 202 } : { error: response.body.error, httpStatus: response.status };
    },
    expectKeyRequired(created) {
      expect(created.httpStatus).toBe(422);
      expect(created.error.details.header).toBe("Idempotency-Key");
    },
  },
  {
    name: "MCP",
    async create(capability, body, { withoutKey = false } = {}) {
      const result: Any = await mcp.callTool({ name: capability.tool.name, arguments: { ...body, ...(withoutKey ? {} : { client_request_id: randomUUID() }) } });
      return result.isError ? { error: result.structuredContent.error } : { task: result.structuredContent };
    },
    expectKeyRequired(created) {
      expect(created.error).toMatchObject({ code: "invalid_request", param: "/client_request_id" });
    },
  },
];

// First, while the queue holds only its task: the worker it starts would otherwise run every task admitted below.
describe("a task whose vendor family has no adapter in the worker", () => {
  it("ends failed with model_unavailable, refunded to the micro-credit", async () => {
    // Every configured family has an adapter, so a worker that lacks one (an older worker during a rolling
    // deploy) is played by pointing an admitted task at a family this worker does not know.
    const capability = CAPABILITIES.find((c) => c.id === "text_to_music")!;
    const created = await h.request("POST", capability.path, { body: { ...capability.example, model: "vendorG-6" }, idempotencyKey: randomUUID() });
    expect(created.status).toBe(202);
    await h.core.db.execute(sql`update tasks set provider_family = 'vendorZ' where id = ${created.body.task_id}`);
    expect(h.core.providers.get("vendorZ")).toBeUndefined();
    await h.startWorker();
    const done = await waitForTask(h, created.body.task_id, ["failed", "succeeded"]);
    await h.stopWorker();
    expect(done.error).toMatchObject({ code: "model_unavailable", retryable: true });
    expect(done.error.message).toContain("no adapter for its vendor family vendorZ");
    expect(done.billing.refunded_credits).toBe(done.billing.charged_credits);
    expect(done.billing.net_charged_credits).toBe("0.000000");
    const entries = (await ledgerEntries(h)).filter((e) => e.task_id === done.task_id);
    expect(entries.map((e) => e.kind)).toEqual(["hold", "release"]);
    expect(entries[0]!.amount).toBe(entries[1]!.amount);
    const after = await balance(h);
    expect(after.granted).toBe(after.available + after.held + after.spent);
  });
});

describe.each(SURFACES.map((s) => [s.name, s] as const))("over %s", (_surface, surface) => {
  describe.each(CAPABILITIES.map((c) => [c.id, c] as const))("%s", (_id, capability) => {
    const create = (body: Record<string, unknown>) => surface.create(capability, body);

    it("admits its minimal example, queued", async () => {
      const created = await create(capability.example);
      expect(created.error, JSON.stringify(created.error)).toBeUndefined();
      if (created.httpStatus !== undefined) expect(created.httpStatus).toBe(202);
      expect(created.task).toMatchObject({ object: "task", status: "queued", capability: capability.id });
      expect(typeof created.task.resolved_model).toBe("string");
    });

    it("refuses an unknown field", async () => {
      const created = await create({ ...capability.example, surprise: true });
      if (created.httpStatus !== undefined) expect(created.httpStatus).toBe(422);
      expect(created.error).toMatchObject({ code: "invalid_request", param: "/surprise" });
    });

    it("bounds metadata at 16 keys, 64-character keys and 512-character values", async () => {
      const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, "v"]));
      expect((await create({ ...capability.example, metadata: sixteen })).task?.status).toBe("queued");
      const tooMany = await create({ ...capability.example, metadata: { ...sixteen, k16: "v" } });
      expect(tooMany.error).toMatchObject({ code: "invalid_request", param: "/metadata" });
      const longKey = await create({ ...capability.example, metadata: { ["k".repeat(65)]: "v" } });
      expect(longKey.error?.param).toBe(`/metadata/${"k".repeat(65)}`);
      const longValue = await create({ ...capability.example, metadata: { k: "v".repeat(513) } });
      expect(longValue.error?.param).toBe("/metadata/k");
      const atBounds = await create({ ...capability.example, metadata: { ["k".repeat(64)]: "v".repeat(512) } });
      expect(atBounds.task?.status).toBe("queued");
    });

    it("requires an HTTPS callback_url, and a callback_url for a signing key", async () => {
      const plain = await create({ ...capability.example, callback_url: "http://example.com/hook" });
      if (plain.httpStatus !== undefined) expect(plain.httpStatus).toBe(422);
      expect(plain.error).toMatchObject({ code: "invalid_request", param: "/callback_url" });
      const keyOnly = await create({ ...capability.example, callback_signing_key_id: "csk_1" });
      if (keyOnly.httpStatus !== undefined) expect(keyOnly.httpStatus).toBe(422);
      expect(keyOnly.error?.code).toBe("callback_url_required");
    });

    it("requires its idempotency key", async () => {
      surface.expectKeyRequired(await surface.create(capability, capability.example, { withoutKey: true }));
    });
  });
});
