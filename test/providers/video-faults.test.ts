import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";
import { createTask, expectFullRefund, expectHoldReleased, followTask, modelLanes, queueFault, vendorSubmits } from "./video-support.js";

// Every scripted fault of the emulator, on each video protocol and on the prompt enhancer, ends the task with
// the public code SPEC.md gives it, the catalogue's `retryable`, the vendor's wording in the message and a full
// refund. Transient faults are retried (six submissions in all) before the task gives up. The hang fault (a
// job that never finishes) is covered with cancel and deadlines in videos.test.ts.

vi.setConfig({ maxConcurrency: 40, testTimeout: 60_000 });
const onModel = modelLanes();

let h: Harness;
beforeAll(async () => {
  // Retries and polls are jobs scheduled for later; a short worker poll interval keeps the waits for them short.
  h = await startHarness({ worker: true, credits: "1000", env: { WORKER_POLL_INTERVAL_MS: "100" } });
});
afterAll(async () => h?.close());

// The service gives up on transient vendor failures after six attempts.
const ATTEMPTS = 6;

interface Protocol {
  family: string;
  path: string;
  // The models a fault may be scripted on, with a small valid body for each; faults are spread across them.
  models: Record<string, Record<string, unknown>>;
  // How this vendor words an input refused by its safety review, and a status it never documents.
  safetyWording: string;
  undocumentedWording: string;
}

const VIDEO = "/v1/videos/text-to-video";
const PROTOCOLS: Protocol[] = [
  {
    family: "vendorA",
    path: VIDEO,
    models: { "vendorA-h3": { prompt: "A harbour at noon", resolution: "768p", duration: 4 } },
    safetyWording: "prompt flagged by safety review",
    undocumentedWording: '"suspended"',
  },
  {
    family: "vendorB",
    path: VIDEO,
    models: {
      "vendorB-2": { prompt: "A harbour at noon", resolution: "480p", duration: 4 },
      "vendorB-2-fast": { prompt: "A harbour at noon", resolution: "480p", duration: 4 },
      "vendorB-2-mini": { prompt: "A harbour at noon" },
      "vendorB-2.5": { prompt: "A harbour at noon", resolution: "480p", duration: 4 },
    },
    safetyWording: "InputTextSensitiveContentDetected",
    undocumentedWording: '"paused"',
  },
  {
    family: "vendorC",
    path: VIDEO,
    models: {
      "vendorC3.0-video": { prompt: "A harbour at noon", resolution: "480p" },
      "vendorC3.0-video-prime": { prompt: "A harbour at noon", resolution: "720p" },
      "vendorC2.7-t2v": { prompt: "A harbour at noon", resolution: "720p" },
    },
    safetyWording: "DataInspectionFailed: Input data may contain inappropriate content",
    undocumentedWording: "UNKNOWN",
  },
  {
    family: "vendorD",
    path: VIDEO,
    models: { "vendorD-1.1-t2v": { prompt: "A harbour at noon", resolution: "720p" } },
    safetyWording: "violates the usage guidelines",
    undocumentedWording: "neither a response nor an error",
  },
  {
    family: "vendorB",
    path: "/v1/videos/prompts/enhance",
    models: { "vendorB-2-prompt-enhancer": { prompt: "A harbour at noon", duration: 6, aspect_ratio: "16:9" } },
    safetyWording: "InputTextSensitiveContentDetected",
    undocumentedWording: '"suspended"',
  },
];

interface FaultCase {
  kind: string;
  code: string;
  retryable: boolean;
  submits: number;
  // What of the vendor's answer the task's message keeps, given the protocol.
  wording?: (p: Protocol) => string;
}

const FAULTS: FaultCase[] = [
  { kind: "http_500", code: "model_request_failed", retryable: true, submits: ATTEMPTS },
  { kind: "http_429", code: "model_rate_limited", retryable: true, submits: ATTEMPTS },
  { kind: "malformed", code: "model_request_failed", retryable: true, submits: ATTEMPTS, wording: () => "not JSON" },
  { kind: "safety", code: "safety_rejected", retryable: false, submits: 1, wording: (p) => p.safetyWording },
  { kind: "content_filtered", code: "content_filtered", retryable: false, submits: 1 },
  { kind: "unknown_status", code: "model_request_failed", retryable: true, submits: 1, wording: (p) => p.undocumentedWording },
  { kind: "bad_download", code: "model_output_invalid", retryable: true, submits: 1, wording: () => "after 3 attempts" },
];

describe.concurrent("vendor faults end tasks with the right code and a full refund", () => {
  for (const protocol of PROTOCOLS) {
    const models = Object.keys(protocol.models);
    // A chat completion has no file to download.
    const faults = protocol.path === VIDEO ? FAULTS : FAULTS.filter((f) => f.kind !== "bad_download");
    faults.forEach((fault, index) => {
      const model = models[index % models.length] as string;
      it(`${model}: ${fault.kind} → ${fault.code}`, () =>
        onModel(model, async () => {
          const before = await vendorSubmits(h, protocol.family, model);
          await queueFault(h, {
            family: protocol.family,
            model,
            kind: fault.kind,
            times: fault.submits,
            ...(fault.kind === "http_429" ? { retry_after_seconds: 0 } : {}),
          });
          const created = await createTask(h, protocol.path, { model, ...protocol.models[model] });
          const { task } = await followTask(h, created.task_id);
          expect(task.status).toBe("failed");
          expect(task.error).toMatchObject({ code: fault.code, retryable: fault.retryable });
          if (fault.wording) expect(task.error.message).toContain(fault.wording(protocol));
          expect(task.output).toBeNull();
          expect((await vendorSubmits(h, protocol.family, model)) - before).toBe(fault.submits);
          if (protocol.path === VIDEO) {
            await expectFullRefund(h, task);
          } else {
            // Enhancement is postpaid: nothing was charged, and the estimate held for it is released whole.
            expect(task.billing).toMatchObject({ charged_credits: "0.000000", net_charged_credits: "0.000000" });
            await expectHoldReleased(h, task.task_id);
          }
        }),
      );
    });
  }
});
