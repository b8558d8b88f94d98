import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseCredits, setSpendLimit } from "../../core/index.js";
import { serveMedia } from "../providers/contract-support.js";
import { COLOURS, halvesPng } from "../providers/video-media.js";
import { clickTrack } from "../providers/audio-support.js";
import { queueFault, vendorSubmits } from "../providers/video-support.js";
import { startMcpHarness, type McpHarness } from "../mcp/support.js";
import { balance, ledgerEntries, waitForTask, type Harness } from "../support/harness.js";

// `auto` over a URL input whose facts only the download reveals (SPEC.md rule 6: auto selects a compatible model
// for the whole request). When the model admission chose cannot take the downloaded input, the worker chooses
// again among the live candidates, before any vendor call and at the price admission would have given: the hold
// follows the new model's price (raised only if the balance and spend limits cover it, else the task fails
// insufficient_balance, refunded), and no_eligible_model lists every candidate's failure when none fits. Every
// balance is checked to the micro-credit; the harness checks the ledger invariant at the end.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

vi.setConfig({ testTimeout: 150_000 });

const TERMINAL = ["succeeded", "failed", "canceled"];
const R2M = "/v1/music/reference-audio-to-music";
const R2V = "/v1/videos/reference-to-video";
const MUSIC_A = "vendorA-music-3.0";
const MUSIC_G = "vendorG-6";
const DROPPED_480_S = `${MUSIC_A}, which auto chose at admission, was dropped once the inputs were downloaded: /reference_audio: lasts 480 s, outside 10 to 300 s`;

// A WAV of silence, 8-bit mono at 8 kHz: 8 kB a second, so the 480 s the issue names is 3.84 MB.
function silentWav(seconds: number): Buffer {
  const rate = 8000;
  const data = seconds * rate;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data, 0x80)]);
}

let m: McpHarness;
let h: Harness;
let longRecording: { url: string; close(): Promise<void> };
let shortRecording: { url: string; close(): Promise<void> };
let tinyPicture: { url: string; close(): Promise<void> };

beforeAll(async () => {
  m = await startMcpHarness({ credits: "100", env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true", WORKER_POLL_INTERVAL_MS: "100" } });
  h = m.h;
  [longRecording, shortRecording, tinyPicture] = await Promise.all([
    serveMedia(silentWav(480), "audio/wav"),
    clickTrack(100, 7, 0.3).then((wav) => serveMedia(wav, "audio/wav")),
    halvesPng(64, 64, COLOURS.red!, COLOURS.blue!).then((png) => serveMedia(png, "image/png")),
  ]);
});
afterAll(async () => {
  await Promise.all([longRecording?.close(), shortRecording?.close(), tinyPicture?.close()]);
  await m?.close();
});

// A tenant of its own, so that its balance says what this one task did.
async function tenantWith(credits: string) {
  const tenant = await h.newTenant(credits);
  const post = async (path: string, body: Record<string, unknown>) => {
    const created = await h.request("POST", path, { body, idempotencyKey: randomUUID(), apiKey: tenant.apiKey });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    return created.body as Any;
  };
  const ended = (taskId: string) => waitForTask(h, taskId, TERMINAL, { apiKey: tenant.apiKey, timeoutMs: 120_000 });
  return { ...tenant, post, ended };
}

const micro = (credits: string) => parseCredits(credits);
const taskEntries = async (tenantId: string, taskId: string) =>
  (await ledgerEntries(h, tenantId)).filter((e) => e.task_id === taskId).map((e) => [e.kind, e.amount]);

// The reference to video request whose 64×64 picture vendorA-h3 (256 px a side at least) cannot take: 8 s, which
// of the others only vendorD-1.1-r2v makes, at 1.12 credits against vendorA-h3's 0.48.
const eightSecondsFromTinyPicture = () => ({
  prompt: "A fox in the snow",
  duration: 8,
  references: [{ kind: "image", media: { type: "url", url: tinyPicture.url }, role: "subject" }],
});

describe("auto, once a URL input is downloaded", () => {
  // The song of a 480 s reference would take the emulator minutes to render on a loaded machine: vendorG takes the
  // submission (its emulator fetches the recording and checks it against vendorG's published limits) and refuses the
  // song when polled, a scripted fault. That the hold followed the model is what the refund shows.
  it("passes a 480 s recording vendorA cannot take to vendorG, at vendorG's lower price, before any vendorA call", async () => {
    const tenant = await tenantWith("1");
    const [submitsToA, submitsToG] = await Promise.all([vendorSubmits(h, "vendorA", MUSIC_A), vendorSubmits(h, "vendorG", MUSIC_G)]);
    await queueFault(h, { family: "vendorG", model: MUSIC_G, kind: "safety", times: 1 });
    const created = await tenant.post(R2M, { prompt: "p", reference_audio: { type: "url", url: longRecording.url } });
    // Admission knew nothing of the recording: vendorA first, at its reference-audio price.
    expect(created).toMatchObject({ resolved_model: MUSIC_A, billing: { charged_credits: "0.200000" } });

    const task = await tenant.ended(created.task_id);
    expect(task.error).toMatchObject({ code: "safety_rejected" });
    expect(task.error.message).toContain("SENSITIVE_WORD_ERROR");
    expect(task.resolved_model).toBe(MUSIC_G);
    expect(task.model_selection_reason).toContain(DROPPED_480_S);
    expect(task.billing).toMatchObject({ charged_credits: "0.100000", refunded_credits: "0.100000", net_charged_credits: "0.000000" });
    expect(await balance(h, tenant.tenantId)).toEqual({ available: micro("1"), held: 0n, spent: 0n, granted: micro("1") });
    expect(await taskEntries(tenant.tenantId, task.task_id)).toEqual([
      ["hold", "100000"],
      ["release", "100000"],
    ]);
    expect(await vendorSubmits(h, "vendorA", MUSIC_A)).toBe(submitsToA);
    expect(await vendorSubmits(h, "vendorG", MUSIC_G)).toBe(submitsToG + 1);
  });

  it("makes the song on vendorG from a 7 s recording, too short for vendorA, charging vendorG's price", async () => {
    const tenant = await tenantWith("1");
    const created = await tenant.post(R2M, { prompt: "p", reference_audio: { type: "url", url: shortRecording.url } });
    expect(created).toMatchObject({ resolved_model: MUSIC_A, billing: { charged_credits: "0.200000" } });
    const task = await tenant.ended(created.task_id);
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    expect(task.resolved_model).toBe(MUSIC_G);
    expect(task.model_selection_reason).toContain(`${MUSIC_A}, which auto chose at admission, was dropped once the inputs were downloaded: /reference_audio: lasts 7 s, outside 10 to 300 s`);
    expect(task.output.clips).toHaveLength(2);
    expect(task.billing).toMatchObject({ charged_credits: "0.100000", refunded_credits: "0.000000", net_charged_credits: "0.100000" });
    expect(await balance(h, tenant.tenantId)).toEqual({ available: micro("0.9"), held: 0n, spent: micro("0.1"), granted: micro("1") });
    expect(await taskEntries(tenant.tenantId, task.task_id)).toEqual([
      ["hold", "100000"],
      ["capture", "100000"],
    ]);
  });

  it("raises the hold to a dearer model's price when the balance covers it, counted under the key's spend limit", async () => {
    const tenant = await tenantWith("2");
    await setSpendLimit(h.core.db, "key", tenant.keyId, { period: "day", limit: micro("5") });
    const created = await tenant.post(R2V, eightSecondsFromTinyPicture());
    expect(created).toMatchObject({ resolved_model: "vendorA-h3", billing: { charged_credits: "0.480000" } });

    const task = await tenant.ended(created.task_id);
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    expect(task.resolved_model).toBe("vendorD-1.1-r2v");
    expect(task.model_selection_reason).toContain("vendorA-h3, which auto chose at admission, was dropped once the inputs were downloaded: /references/0/media: 64×64 px");
    expect(task.billing).toMatchObject({ charged_credits: "1.120000", net_charged_credits: "1.120000" });
    expect(await balance(h, tenant.tenantId)).toEqual({ available: micro("0.88"), held: 0n, spent: micro("1.12"), granted: micro("2") });
    expect(await taskEntries(tenant.tenantId, task.task_id)).toEqual([
      ["hold", "1120000"],
      ["capture", "1120000"],
    ]);
    const counted = await h.core.db.execute<{ spent: string }>(sql`select spent::text from spend_counters where scope = 'key' and owner = ${tenant.keyId}`);
    expect(counted.map((c) => c.spent)).toEqual(["1120000"]);
  });

  it("fails insufficient_balance, naming the model chosen and why, with everything refunded, when the balance does not cover the raise", async () => {
    const tenant = await tenantWith("0.5");
    const submitsToD = await vendorSubmits(h, "vendorD", "vendorD-1.1-r2v");
    const created = await tenant.post(R2V, eightSecondsFromTinyPicture());
    const task = await tenant.ended(created.task_id);
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({
      code: "insufficient_balance",
      retryable: false,
      details: { model: "vendorD-1.1-r2v", dropped_model: "vendorA-h3", price_credits: "1.120000", held_credits: "0.480000", required_credits: "0.640000", available_credits: "0.020000" },
    });
    expect(task.error.message).toContain("auto chose vendorD-1.1-r2v for this task once its inputs were downloaded (vendorA-h3, which auto chose at admission, was dropped");
    // Nothing changed but the ending: the task names the model it was admitted with, and its hold went back whole.
    expect(task.resolved_model).toBe("vendorA-h3");
    expect(task.billing).toMatchObject({ charged_credits: "0.480000", refunded_credits: "0.480000", net_charged_credits: "0.000000" });
    expect(await balance(h, tenant.tenantId)).toEqual({ available: micro("0.5"), held: 0n, spent: 0n, granted: micro("0.5") });
    expect(await taskEntries(tenant.tenantId, task.task_id)).toEqual([
      ["hold", "480000"],
      ["release", "480000"],
    ]);
    expect(await vendorSubmits(h, "vendorD", "vendorD-1.1-r2v")).toBe(submitsToD);
  });

  it("fails insufficient_balance at the key's spend limit, which the raise would pass, giving the admission's spend back", async () => {
    const tenant = await tenantWith("10");
    await setSpendLimit(h.core.db, "key", tenant.keyId, { period: "day", limit: micro("1") });
    const created = await tenant.post(R2V, eightSecondsFromTinyPicture());
    const task = await tenant.ended(created.task_id);
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({
      code: "insufficient_balance",
      details: { model: "vendorD-1.1-r2v", required_credits: "0.640000", spend_limit: { scope: "key", owner: tenant.keyId, limit_credits: "1.000000", spent_credits: "0.480000" } },
    });
    expect(await balance(h, tenant.tenantId)).toEqual({ available: micro("10"), held: 0n, spent: 0n, granted: micro("10") });
    const counted = await h.core.db.execute<{ spent: string }>(sql`select spent::text from spend_counters where scope = 'key' and owner = ${tenant.keyId}`);
    expect(counted.map((c) => c.spent)).toEqual(["0"]);
  });

  it("fails no_eligible_model with every candidate's failure when no model takes the downloaded input, refunded", async () => {
    const tenant = await tenantWith("1");
    const created = await tenant.post(R2V, { ...eightSecondsFromTinyPicture(), duration: 6 });
    expect(created).toMatchObject({ resolved_model: "vendorA-h3", billing: { charged_credits: "0.360000" } });
    const task = await tenant.ended(created.task_id);
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({ code: "no_eligible_model", retryable: false });
    expect(task.error.message).toContain("vendorA-h3, which auto chose at admission, was dropped once the inputs were downloaded");
    expect(task.error.details.candidate_failures).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ model: "vendorA-h3", code: "unsupported_media_dimensions", param: "/references/0/media", received: "64×64" }),
        expect.objectContaining({ model: "vendorC3.0-video", param: "/duration" }),
      ]),
    );
    expect(await balance(h, tenant.tenantId)).toEqual({ available: micro("1"), held: 0n, spent: 0n, granted: micro("1") });
  });

  it("does the same through MCP: svc.music.generate_from_reference over the 480 s recording goes to vendorG", async () => {
    const submitsToG = await vendorSubmits(h, "vendorG", MUSIC_G);
    await queueFault(h, { family: "vendorG", model: MUSIC_G, kind: "safety", times: 1 });
    const before = await balance(h);
    const client = await m.connect();
    const created = await client.callTool({
      name: "svc.music.generate_from_reference",
      arguments: { client_request_id: randomUUID(), prompt: "p", reference_audio: { type: "url", url: longRecording.url } },
    });
    const admitted = created.structuredContent as Any;
    expect(admitted, JSON.stringify(created.content)).toMatchObject({ status: "queued", resolved_model: MUSIC_A });
    const ended = await waitForTask(h, admitted.task_id, TERMINAL, { timeoutMs: 120_000 });
    // A finished task's MCP answer is kept small and leaves the selection's reason to the REST envelope.
    expect(ended.model_selection_reason).toContain(DROPPED_480_S);
    const read = await client.callTool({ name: "svc.tasks.get", arguments: { task_id: admitted.task_id } });
    expect(read.structuredContent).toMatchObject({
      status: "failed",
      resolved_model: MUSIC_G,
      error: { code: "safety_rejected" },
      billing: { charged_credits: "0.100000", refunded_credits: "0.100000" },
    });
    expect(await balance(h)).toEqual(before);
    expect(await vendorSubmits(h, "vendorG", MUSIC_G)).toBe(submitsToG + 1);
  });
});
