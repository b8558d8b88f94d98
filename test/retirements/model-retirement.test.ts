import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setModelRetirement } from "../../core/index.js";
import { startMcpHarness, type McpHarness } from "../mcp/support.js";
import { waitForTask } from "../support/harness.js";
import { eventually } from "../support/wait.js";

// A model's retirement as callers meet it: `auto` stops choosing a model from its deprecation, a request naming it
// is served with Deprecation and Sunset headers and a warning until its retirement, then refused with
// unsupported_model and nothing held. The service's clock is the test's, so "tomorrow" comes without waiting.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const HD = "vendorA-speech-2.8-hd";
const TURBO = "vendorA-speech-2.8-turbo";
const DAY = 86_400_000;
const start = new Date(Math.floor(Date.now() / 1000) * 1000);
const tomorrow = new Date(start.getTime() + DAY);
const nextWeek = new Date(start.getTime() + 7 * DAY);
let now = start;
const at = (date: Date, plusMs = 0) => {
  now = new Date(date.getTime() + plusMs);
};

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness({
    worker: false,
    clock: () => now,
    // The configuration's retirement of a video model, which the operator clears at run time below.
    env: { MODEL_RETIREMENTS: JSON.stringify({ "vendorB-2-mini": { retires_at: "2030-01-01", deprecated_at: "2029-06-01", replacement: "vendorB-2" } }) },
  });
}, 300_000);
afterAll(async () => m?.close());

const speak = (model: string) =>
  m.h.request("POST", "/v1/audio/speech", { body: { model, voice: "en_female_aria", input: "hello" }, idempotencyKey: randomUUID() });
const card = async (model: string) => (await m.h.request("GET", `/v1/catalog/models/${model}`)).body;
const listed = async () => ((await m.h.request("GET", "/v1/models")).body.data as Any[]).map((entry) => entry.id);
const balance = async () => (await m.h.request("GET", "/v1/credits")).body;
const taskCount = async () => ((await m.h.request("GET", "/v1/tasks?limit=100")).body.data as Any[]).length;

describe("a model retiring", () => {
  it("is chosen by auto the day before its deprecation, and the catalog shows its dates", async () => {
    at(start);
    const standing = await setModelRetirement(m.h.core, { model: HD, deprecatedAt: tomorrow, retiresAt: nextWeek, replacement: TURBO });
    expect(standing.lifecycle).toBe("active");

    const today = await speak("auto");
    expect(today.status, JSON.stringify(today.body)).toBe(202);
    expect(today.body.resolved_model).toBe(HD);
    expect(today.body.warnings).toEqual([]);
    expect(today.headers.get("deprecation")).toBeNull();
    expect(today.headers.get("sunset")).toBeNull();
    expect(await card(HD)).toMatchObject({
      live: true,
      lifecycle: "active",
      deprecated_at: tomorrow.toISOString(),
      retires_at: nextWeek.toISOString(),
      replacement: TURBO,
    });
    expect(await card(TURBO)).toMatchObject({ lifecycle: "active", deprecated_at: null, retires_at: null, replacement: null });
  });

  it("from its deprecation: auto routes around it, and naming it gets both headers and the warning", async () => {
    at(tomorrow, 3_600_000);
    const auto = await speak("auto");
    expect(auto.status, JSON.stringify(auto.body)).toBe(202);
    expect(auto.body.resolved_model).toBe(TURBO);
    expect(auto.body.model_selection_reason).toContain(`passed over deprecated ${HD}`);
    expect(auto.body.warnings).toEqual([]);
    expect(auto.headers.get("deprecation")).toBeNull();

    const named = await speak(HD);
    expect(named.status, JSON.stringify(named.body)).toBe(202);
    expect(named.body.resolved_model).toBe(HD);
    expect(named.headers.get("deprecation")).toBe(`@${tomorrow.getTime() / 1000}`);
    expect(named.headers.get("sunset")).toBe(nextWeek.toUTCString());
    expect(named.body.warnings).toHaveLength(1);
    expect(named.body.warnings[0]).toMatchObject({ code: "model_deprecated", field: "/model" });
    expect(named.body.warnings[0].message).toContain(nextWeek.toISOString());
    expect(named.body.warnings[0].message).toContain(`Use ${TURBO} instead`);
    // What a GET shows later is what the admission answered.
    expect((await m.h.request("GET", `/v1/tasks/${named.body.task_id}`)).body.warnings).toEqual(named.body.warnings);

    expect(await card(HD)).toMatchObject({ live: true, lifecycle: "deprecated" });
    expect(await listed()).toContain(HD);
  });

  it("from its deprecation, the MCP tool result carries the warning too", async () => {
    at(tomorrow, 3_600_000);
    const client = await m.connect();
    const created = await client.callTool({
      name: "svc.speech.synthesize",
      arguments: { client_request_id: randomUUID(), model: HD, voice: "en_female_aria", input: "hello" },
    });
    expect(created.isError, JSON.stringify(created)).toBeFalsy();
    const task = created.structuredContent as Any;
    expect(task.resolved_model).toBe(HD);
    expect(task.warnings).toEqual([expect.objectContaining({ code: "model_deprecated", field: "/model" })]);
    const text = (created.content as Any[]).map((c) => c.text).join("\n");
    expect(text).toContain("model_deprecated");
  });

  it("from its retirement: naming it is refused with unsupported_model, nothing held; auto never takes it", async () => {
    at(nextWeek, 60_000);
    const [before, tasksBefore] = [await balance(), await taskCount()];
    const refused = await speak(HD);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: "unsupported_model",
      retryable: false,
      param: "/model",
      details: { received: HD, reason: "retired", retired_at: nextWeek.toISOString(), replacement: TURBO },
    });
    expect(refused.body.error.details.supported_models).toEqual(["auto", TURBO]);
    expect(await balance()).toEqual(before);
    expect(await taskCount()).toBe(tasksBefore);

    const auto = await speak("auto");
    expect(auto.status).toBe(202);
    expect(auto.body.resolved_model).toBe(TURBO);
    expect(await card(HD)).toMatchObject({ live: false, lifecycle: "retired" });
    expect(await listed()).not.toContain(HD);
  });

  it("auto takes a deprecated model only when no compatible model that is not deprecated remains, and says so", async () => {
    at(nextWeek, 60_000);
    await setModelRetirement(m.h.core, { model: TURBO, deprecatedAt: nextWeek, retiresAt: new Date(nextWeek.getTime() + DAY) });
    const auto = await speak("auto");
    expect(auto.status, JSON.stringify(auto.body)).toBe(202);
    expect(auto.body.resolved_model).toBe(TURBO);
    expect(auto.body.model_selection_reason).toMatch(/deprecated model .* chosen since no live compatible model that is not deprecated remains/);
    expect(auto.body.warnings).toEqual([expect.objectContaining({ code: "model_deprecated" })]);
    expect(auto.headers.get("sunset")).toBe(new Date(nextWeek.getTime() + DAY).toUTCString());

    at(nextWeek, DAY + 60_000);
    const none = await speak("auto");
    expect(none.status).toBe(422);
    expect(none.body.error.code).toBe("no_eligible_model");
    expect(none.body.error.details.candidate_failures).toEqual([
      expect.objectContaining({ model: HD, code: "model_retired", param: "/model" }),
      expect.objectContaining({ model: TURBO, code: "model_retired", param: "/model" }),
    ]);

    await setModelRetirement(m.h.core, { model: TURBO, clear: true });
    expect((await speak("auto")).body.resolved_model).toBe(TURBO);
  });

  it("a task admitted before its model retires runs as the vendor answers, and says why", async () => {
    const admittedAt = new Date(nextWeek.getTime() + 2 * DAY);
    at(admittedAt);
    await setModelRetirement(m.h.core, { model: TURBO, retiresAt: new Date(admittedAt.getTime() + 60_000) });
    const admitted = await speak(TURBO);
    expect(admitted.status, JSON.stringify(admitted.body)).toBe(202);
    expect(admitted.body.warnings.map((w: Any) => w.code)).toEqual(["model_deprecated"]);

    at(admittedAt, 120_000);
    expect((await speak(TURBO)).body.error.code).toBe("unsupported_model");
    await m.h.startWorker();
    try {
      const ended = await waitForTask(m.h, admitted.body.task_id, ["succeeded", "failed"]);
      // The emulator still serves the model, as a vendor does until its own shutdown.
      expect(ended.status).toBe("succeeded");
      expect(ended.warnings.map((w: Any) => w.code)).toEqual(["model_deprecated", "model_retired"]);
      expect(ended.warnings[1]).toMatchObject({ field: "/resolved_model" });
      expect(ended.warnings[1].message).toContain("after this task was admitted");
    } finally {
      await m.h.stopWorker();
    }
    await setModelRetirement(m.h.core, { model: TURBO, clear: true });
  });

  it("shows the configuration's retirement until the operator clears it, without a restart", async () => {
    expect(await card("vendorB-2-mini")).toMatchObject({
      lifecycle: "active",
      deprecated_at: "2029-06-01T00:00:00.000Z",
      retires_at: "2030-01-01T00:00:00.000Z",
      replacement: "vendorB-2",
    });
    await setModelRetirement(m.h.core, { model: "vendorB-2-mini", clear: true });
    await eventually("the cleared retirement in the catalog", 10_000, async () => ((await card("vendorB-2-mini")).retires_at === null ? true : undefined));
  });
});
