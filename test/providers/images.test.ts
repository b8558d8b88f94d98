import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepOverdueTasks } from "../../core/index.js";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { probeMedia } from "../../core/media/probe.js";
import { countRows, ledgerEntries, startHarness, waitForTask, type Harness } from "../support/harness.js";
import { eventually } from "../support/wait.js";

// text_to_image on every image model, through the real worker and the vendor emulator over HTTP: vendorE answers
// synchronously with inline images, vendorF runs polled tasks with progress, vendorC runs polled jobs with a
// status vocabulary of its own, vendorA (image-01-live) answers synchronously with download URLs. Each describe
// runs after the one before; its tests run at once, and those that script faults use disjoint models, because
// the emulator hands scripted faults out per family and model.

let h: Harness;
beforeAll(async () => {
  // Polls and retries are jobs scheduled for later; a short worker poll interval and retry backoff keep them quick.
  h = await startHarness({ worker: true, credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100", PROVIDER_RETRY_BASE_MS: "10" } });
});
afterAll(async () => {
  if (!h) return;
  try {
    const overdue = await countRows(h, sql`select count(*)::int as n from tasks where status in ('queued', 'running') and deadline_at < now()`);
    expect(overdue).toBe(0);
    const broken = await countRows(h, sql`select count(*)::int as n from credit_accounts where granted <> available + held + spent or available < 0`);
    expect(broken).toBe(0);
  } finally {
    await h.close();
  }
});

interface ImageModelCase {
  model: string;
  family: string;
  tier: string;
  aspect: string;
  count: number;
  // Written out rather than computed, so that a wrong canvas mapping fails here.
  width: number;
  height: number;
}

const MODELS: ImageModelCase[] = [
  { model: "vendorE-image-2.5-flare", family: "vendorE", tier: "1K", aspect: "4:3", count: 4, width: 1024, height: 768 },
  { model: "vendorE-image-2.5-sunburst", family: "vendorE", tier: "1K", aspect: "3:4", count: 3, width: 768, height: 1024 },
  { model: "vendorE-image-2", family: "vendorE", tier: "1K", aspect: "9:16", count: 2, width: 576, height: 1024 },
  { model: "image-01-live", family: "vendorA", tier: "2K", aspect: "3:2", count: 2, width: 2048, height: 1368 },
  { model: "vendorC2.7-image-pro", family: "vendorC", tier: "2K", aspect: "21:9", count: 2, width: 2048, height: 880 },
  { model: "vendorC2.7-image", family: "vendorC", tier: "1K", aspect: "4:3", count: 4, width: 1024, height: 768 },
  { model: "vendorF-image-3.0-pro", family: "vendorF", tier: "2K", aspect: "2:3", count: 2, width: 1368, height: 2048 },
  { model: "vendorF-image-3.0", family: "vendorF", tier: "1K", aspect: "3:4", count: 3, width: 768, height: 1024 },
  { model: "vendorF-image-2.0-pro", family: "vendorF", tier: "2K", aspect: "1:1", count: 1, width: 2048, height: 2048 },
  { model: "vendorF-image-2.0", family: "vendorF", tier: "1K", aspect: "16:9", count: 1, width: 1024, height: 576 },
];

const [FLARE, SUNBURST, E2, LIVE, C_PRO, C_STD, F3_PRO, F3, F2_PRO, F2] = MODELS.map((m) => m.model) as [
  string, string, string, string, string, string, string, string, string, string,
];

const PALETTE = [
  { color: "#D81B60", weight: 0.5 },
  { color: "#1E88E5", weight: 0.3 },
  { color: "#FFC107", weight: 0.2 },
];

const TERMINAL = ["succeeded", "failed", "canceled"];

async function generate(body: Record<string, unknown>): Promise<string> {
  const created = await h.request("POST", "/v1/images/generations", {
    body: { prompt: "a lighthouse on a cliff at dawn", ...body },
    idempotencyKey: randomUUID(),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  return created.body.task_id as string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const finished = (taskId: string): Promise<any> => waitForTask(h, taskId, TERMINAL, { timeoutMs: 25_000 });

// The cheapest request a model accepts: one square image at its lowest tier.
function smallest(model: string) {
  const entry = MODELS.find((m) => m.model === model)!;
  return { model, canvas: { tier: entry.tier, aspect: "1:1" } };
}

async function downloadImages(task: { output: { artifacts: { url: string; byte_size: number }[] } }) {
  return Promise.all(
    task.output.artifacts.map(async (artifact) => {
      const response = await fetch(artifact.url);
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.length).toBe(artifact.byte_size);
      return { bytes, probe: await probeMedia(bytes) };
    }),
  );
}

// The share of the picture each colour covers, keyed by #RRGGBB.
async function colourShares(picture: Buffer): Promise<Map<string, number>> {
  const rgb = await runFfmpeg(["-i", "pipe:0", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"], picture);
  const counts = new Map<number, number>();
  for (let i = 0; i < rgb.length; i += 3) {
    const key = (rgb[i]! << 16) | (rgb[i + 1]! << 8) | rgb[i + 2]!;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const pixels = rgb.length / 3;
  return new Map([...counts].map(([key, n]) => [`#${key.toString(16).padStart(6, "0").toUpperCase()}`, n / pixels]));
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function scriptFault(family: string, model: string, kind: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${h.emulatorUrl}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ family, model, kind, ...extra }),
  });
  expect(response.status, await response.text()).toBe(201);
}

async function vendorCalls(model: string): Promise<{ method: string; path: string }[]> {
  const received = (await (await fetch(`${h.emulatorUrl}/_emulator/requests`)).json()) as { model: string | null; method: string; path: string }[];
  return received.filter((r) => r.model === model);
}

const submissions = async (model: string) => (await vendorCalls(model)).filter((r) => r.method === "POST" && !r.path.endsWith("/cancel")).length;
const cancellations = async (model: string) => (await vendorCalls(model)).filter((r) => r.path.endsWith("/cancel")).length;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function expectFullRefund(task: any) {
  expect(task.billing.charged_credits).not.toBe("0.000000");
  expect(task.billing.refunded_credits).toBe(task.billing.charged_credits);
  expect(task.billing.net_charged_credits).toBe("0.000000");
  const entries = (await ledgerEntries(h)).filter((e) => e.task_id === task.task_id);
  expect(entries.map((e) => e.kind)).toEqual(["hold", "release"]);
  expect(entries[1]!.amount).toBe(entries[0]!.amount);
}

interface FaultCase {
  family: string;
  model: string;
  kind: string;
  times?: number;
  retryAfterSeconds?: number;
  code: string;
  retryable: boolean;
  // Submissions the vendor receives for the task; after a persistent transient fault, the service's six attempts.
  submits: number;
  // Vendor wording that must survive into error.message.
  wording?: string;
}

// Scripts each case's fault, runs one task per case at once, and checks how each ended.
async function expectFaultOutcomes(cases: FaultCase[]) {
  for (const c of cases) await scriptFault(c.family, c.model, c.kind, { times: c.times ?? 1, retry_after_seconds: c.retryAfterSeconds });
  const before = await Promise.all(cases.map((c) => submissions(c.model)));
  const tasks = await Promise.all(cases.map(async (c) => finished(await generate(smallest(c.model)))));
  for (const [i, c] of cases.entries()) {
    const task = tasks[i];
    const label = `${c.model} ${c.kind}: ${JSON.stringify(task.error)}`;
    expect(task.status, label).toBe("failed");
    expect(task.error, label).toMatchObject({ code: c.code, retryable: c.retryable });
    if (c.wording) expect(task.error.message, label).toContain(c.wording);
    expect(task.output, label).toBeNull();
    expect((await submissions(c.model)) - before[i]!, label).toBe(c.submits);
    await expectFullRefund(task);
  }
}

// Stands in for the passing of time: the task's deadline is now behind it.
async function passDeadline(taskId: string) {
  await h.core.db.execute(sql`update tasks set deadline_at = now() - interval '1 second' where id = ${taskId}`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function waitForProgress(taskId: string, percent: number): Promise<any> {
  const until = Date.now() + 15_000;
  for (;;) {
    const task = (await h.request("GET", `/v1/tasks/${taskId}`)).body;
    if (task.status === "running" && task.progress?.percent === percent) return task;
    if (Date.now() > until) throw new Error(`task ${taskId} never showed ${percent}%: ${JSON.stringify(task.progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("text_to_image on every image model", () => {
  it.concurrent.each(MODELS)("$model ($family) renders $count PNGs of $width×$height", async (m) => {
    const taskId = await generate({ model: m.model, count: m.count, canvas: { tier: m.tier, aspect: m.aspect } });
    const task = await finished(taskId);
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    expect(task.resolved_model).toBe(m.model);
    expect(task.output.artifacts).toHaveLength(m.count);
    for (const artifact of task.output.artifacts) {
      expect(artifact).toMatchObject({ kind: "image", content_type: "image/png", format: "png", width: m.width, height: m.height });
    }
    const pictures = await downloadImages(task);
    for (const { probe } of pictures) expect(probe).toMatchObject({ codec: "png", width: m.width, height: m.height });
    // An independent set is a set of different pictures.
    expect(new Set(pictures.map((p) => sha256(p.bytes))).size).toBe(m.count);
    expect(task.usage).toMatchObject({ image_count: m.count, image_pixels: m.count * m.width * m.height });
    expect(task.usage.credits).toBe(task.billing.charged_credits);
    expect(task.billing.refunded_credits).toBe("0.000000");
  });
});

describe("what the pictures show", () => {
  it.concurrent.each([FLARE, F3])("%s paints the palette's colours in their weights", async (model) => {
    const task = await finished(await generate({ model, count: 2, canvas: { tier: "1K", aspect: "1:1" }, palette: PALETTE }));
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    for (const { bytes } of await downloadImages(task)) {
      const shares = await colourShares(bytes);
      for (const { color, weight } of PALETTE) expect(shares.get(color), color).toBeCloseTo(weight, 2);
    }
  });

  it.concurrent.each([FLARE, F3_PRO, C_PRO])("%s makes a sequence one scene across the set, and an independent set different scenes", async (model) => {
    const tier = model === FLARE ? "1K" : "2K";
    const [sequence, independent] = await Promise.all(
      ["sequence", "independent"].map(async (relationship) =>
        finished(await generate({ model, count: 2, canvas: { tier, aspect: "16:9" }, output_relationship: relationship })),
      ),
    );
    for (const task of [sequence, independent]) expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    const histograms = async (task: unknown) =>
      Promise.all((await downloadImages(task as never)).map(async (p) => ({ sha: sha256(p.bytes), shares: await colourShares(p.bytes) })));
    const [first, second] = await histograms(sequence);
    expect(first!.sha).not.toBe(second!.sha);
    expect(second!.shares).toEqual(first!.shares);
    const [one, other] = await histograms(independent);
    expect(other!.shares).not.toEqual(one!.shares);
  });
});

describe("vendor failures that persist end retryable after six attempts, fully refunded", () => {
  it.concurrent("vendorE (synchronous): 500s, 429s and cut-off answers", () =>
    expectFaultOutcomes([
      { family: "vendorE", model: FLARE, kind: "http_500", times: 6, code: "model_request_failed", retryable: true, submits: 6, wording: "INTERNAL" },
      { family: "vendorE", model: SUNBURST, kind: "http_429", times: 6, retryAfterSeconds: 0, code: "model_rate_limited", retryable: true, submits: 6 },
      { family: "vendorE", model: E2, kind: "malformed", times: 6, code: "model_request_failed", retryable: true, submits: 6, wording: "not JSON" },
    ]));

  it.concurrent("vendorF (polled): 500s, 429s and cut-off answers to task creation", () =>
    expectFaultOutcomes([
      { family: "vendorF", model: F3_PRO, kind: "http_500", times: 6, code: "model_request_failed", retryable: true, submits: 6, wording: "internal_error" },
      { family: "vendorF", model: F3, kind: "http_429", times: 6, retryAfterSeconds: 0, code: "model_rate_limited", retryable: true, submits: 6 },
      { family: "vendorF", model: F2_PRO, kind: "malformed", times: 6, code: "model_request_failed", retryable: true, submits: 6 },
    ]));

  it.concurrent("vendorC image (polled): 500s and 429s on submission, then a job whose every status answer is cut off", async () => {
    await expectFaultOutcomes([
      { family: "vendorC", model: C_PRO, kind: "http_500", times: 6, code: "model_request_failed", retryable: true, submits: 6, wording: "InternalError" },
      { family: "vendorC", model: C_STD, kind: "http_429", times: 6, retryAfterSeconds: 0, code: "model_rate_limited", retryable: true, submits: 6 },
    ]);
    // Submitted once; the polls fail until the attempts are spent.
    await expectFaultOutcomes([{ family: "vendorC", model: C_PRO, kind: "malformed", code: "model_request_failed", retryable: true, submits: 1 }]);
  });

  it.concurrent("vendorA image-01-live: 500s", () =>
    expectFaultOutcomes([{ family: "vendorA", model: LIVE, kind: "http_500", times: 6, code: "model_request_failed", retryable: true, submits: 6 }]));
});

describe("a single transient failure is retried and charged once", () => {
  it.concurrent.each([
    ["vendorE", E2],
    ["vendorF", F2],
    ["vendorC", C_STD],
  ])("%s %s", async (family, model) => {
    await scriptFault(family, model, "http_500");
    const before = await submissions(model);
    const task = await finished(await generate(smallest(model)));
    expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
    expect((await submissions(model)) - before).toBe(2);
    expect(task.billing.refunded_credits).toBe("0.000000");
    expect(task.usage.credits).toBe(task.billing.charged_credits);
    const entries = (await ledgerEntries(h)).filter((e) => e.task_id === task.task_id);
    expect(entries.map((e) => e.kind)).toEqual(["hold", "capture"]);
  });
});

describe("vendor refusals end at once, fully refunded", () => {
  it.concurrent("vendorE: blocked prompt, filtered output, undocumented finishReason, undecodable bytes", async () => {
    await expectFaultOutcomes([
      { family: "vendorE", model: FLARE, kind: "safety", code: "safety_rejected", retryable: false, submits: 1, wording: "blocked by the safety filter" },
      { family: "vendorE", model: SUNBURST, kind: "content_filtered", code: "content_filtered", retryable: false, submits: 1, wording: "output filter" },
      { family: "vendorE", model: E2, kind: "unknown_status", code: "model_request_failed", retryable: true, submits: 1, wording: "DEFERRED" },
    ]);
    await expectFaultOutcomes([{ family: "vendorE", model: FLARE, kind: "bad_download", code: "model_output_invalid", retryable: true, submits: 1 }]);
  });

  it.concurrent("vendorF: content policy, moderated output, undocumented state, undownloadable files", () =>
    expectFaultOutcomes([
      { family: "vendorF", model: F3_PRO, kind: "safety", code: "safety_rejected", retryable: false, submits: 1, wording: "content policy" },
      { family: "vendorF", model: F3, kind: "content_filtered", code: "content_filtered", retryable: false, submits: 1, wording: "output moderation" },
      { family: "vendorF", model: F2_PRO, kind: "unknown_status", code: "model_request_failed", retryable: true, submits: 1, wording: "paused" },
      { family: "vendorF", model: F2, kind: "bad_download", code: "model_output_invalid", retryable: true, submits: 1, wording: "3 attempts" },
    ]));

  it.concurrent("vendorC image: failed inspection of the prompt and of the output, undocumented status, undownloadable files", async () => {
    await expectFaultOutcomes([
      { family: "vendorC", model: C_PRO, kind: "safety", code: "safety_rejected", retryable: false, submits: 1, wording: "Input data" },
      { family: "vendorC", model: C_STD, kind: "content_filtered", code: "content_filtered", retryable: false, submits: 1, wording: "Output data" },
    ]);
    await expectFaultOutcomes([
      { family: "vendorC", model: C_PRO, kind: "unknown_status", code: "model_request_failed", retryable: true, submits: 1, wording: "SUSPENDED" },
      { family: "vendorC", model: C_STD, kind: "bad_download", code: "model_output_invalid", retryable: true, submits: 1 },
    ]);
  });

  it.concurrent("vendorA image-01-live: blocked output, undownloadable files", async () => {
    await expectFaultOutcomes([{ family: "vendorA", model: LIVE, kind: "content_filtered", code: "content_filtered", retryable: false, submits: 1 }]);
    await expectFaultOutcomes([{ family: "vendorA", model: LIVE, kind: "bad_download", code: "model_output_invalid", retryable: true, submits: 1 }]);
  });
});

describe("a vendor that never finishes: the task ends at its deadline", () => {
  it.concurrent("vendorE: an unanswered request is ended by the deadline sweep with model_timeout", async () => {
    await scriptFault("vendorE", FLARE, "hang");
    const before = await submissions(FLARE);
    const taskId = await generate(smallest(FLARE));
    await waitForTask(h, taskId, ["running"]);
    while ((await submissions(FLARE)) === before) await new Promise((resolve) => setTimeout(resolve, 50));
    await passDeadline(taskId);
    await sweepOverdueTasks(h.core);
    const task = await finished(taskId);
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({ code: "model_timeout", retryable: true });
    await expectFullRefund(task);
  });

  it.concurrent("vendorF: a stalled task shows the vendor's progress, then ends model_timeout and is canceled at the vendor", async () => {
    await scriptFault("vendorF", F3, "hang");
    const taskId = await generate(smallest(F3));
    const running = await waitForProgress(taskId, 37);
    expect(running.progress.message).toContain("in_progress");
    const cancelsBefore = await cancellations(F3);
    await passDeadline(taskId);
    const task = await finished(taskId);
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({ code: "model_timeout", retryable: true });
    await expectFullRefund(task);
    // The vendor's job is stopped once, just after the task's end.
    await eventually("the vendor's cancel", 10_000, async () => ((await cancellations(F3)) > cancelsBefore ? true : undefined));
    expect((await cancellations(F3)) - cancelsBefore).toBe(1);
  });

  it.concurrent("vendorF: canceling a running task stops it at the vendor and refunds it in full", async () => {
    await scriptFault("vendorF", F3_PRO, "hang");
    const taskId = await generate(smallest(F3_PRO));
    await waitForProgress(taskId, 37);
    const cancelsBefore = await cancellations(F3_PRO);
    const response = await h.request("POST", `/v1/tasks/${taskId}/cancel`, { body: { reason: "no longer needed" } });
    expect(response.status).toBe(202);
    expect(response.body.cancel_requested_at).not.toBeNull();
    const task = await finished(taskId);
    expect(task.status).toBe("canceled");
    await expectFullRefund(task);
    await eventually("the vendor's cancel", 10_000, async () => ((await cancellations(F3_PRO)) > cancelsBefore ? true : undefined));
    expect((await cancellations(F3_PRO)) - cancelsBefore).toBe(1);
  });

  it.concurrent("vendorC image: a job that stays RUNNING ends model_timeout", async () => {
    await scriptFault("vendorC", C_PRO, "hang");
    const taskId = await generate(smallest(C_PRO));
    await waitForProgress(taskId, 50);
    await passDeadline(taskId);
    const task = await finished(taskId);
    expect(task.status).toBe("failed");
    expect(task.error).toMatchObject({ code: "model_timeout", retryable: true });
    await expectFullRefund(task);
  });
});
