import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForCallback } from "../callbacks/support.js";
import { startReceiver, type Receiver } from "../callbacks/receiver.js";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";
import { eventually } from "../support/wait.js";

// The Prometheus text a process serves, read the way Prometheus reads it: by series.
let h: Harness;
let receiver: Receiver;

beforeAll(async () => {
  // The first delivery is refused, every later one accepted.
  receiver = await startReceiver((index) => ({ status: index === 0 ? 500 : 200 }));
  h = await startHarness({ worker: true, env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true", CALLBACK_RETRY_MINUTE_MS: "20" } });
});

afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

const MODEL = "vendorA-speech-2.8-hd";
const scrape = async () => (await fetch(`${h.baseUrl}/metrics`)).text();

// The value of one series, exactly as labelled (label order as the process writes them); 0 when absent.
function series(text: string, name: string, labels: Record<string, string> = {}): number {
  const rendered = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .join(",");
  const line = text.split("\n").find((l) => l.startsWith(rendered ? `${name}{${rendered}} ` : `${name} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

const speak = (key: string, extra: Record<string, unknown> = {}) =>
  h.request("POST", "/v1/audio/speech", { idempotencyKey: key, body: { voice: "en_female_aria", model: MODEL, input: "Metrics.", ...extra } });

describe("task, vendor and callback metrics", () => {
  it("count admissions, finishes by status and error code, vendor calls and callback outcomes", async () => {
    const before = await scrape();
    const ok = await speak("metrics-ok", { callback_url: `${receiver.url}/hooks` });
    expect((await speak("metrics-ok", { callback_url: `${receiver.url}/hooks` })).headers.get("idempotent-replayed")).toBe("true");
    await waitForTask(h, ok.body.task_id, ["succeeded"]);
    await waitForCallback(h, ok.body.task_id, (callback) => callback.status === "delivered");

    await fetch(`${h.emulatorUrl}/_emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ family: "vendorA", kind: "safety" }),
    });
    const refused = await speak("metrics-safety");
    expect((await waitForTask(h, refused.body.task_id, ["failed"])).error.code).toBe("safety_rejected");

    await h.stopWorker();
    const canceled = await speak("metrics-cancel");
    expect((await h.request("POST", `/v1/tasks/${canceled.body.task_id}/cancel`)).body.status).toBe("canceled");
    await h.startWorker();

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => series(after, name, labels) - series(before, name, labels);
    // The replay is not an admission.
    expect(delta("svc_tasks_admitted_total", { capability: "text_to_speech", model: MODEL })).toBe(3);
    const finished = (status: string, error_code: string) =>
      delta("svc_tasks_finished_total", { capability: "text_to_speech", model: MODEL, status, error_code });
    expect([finished("succeeded", ""), finished("failed", "safety_rejected"), finished("canceled", "")]).toEqual([1, 1, 1]);
    expect(delta("svc_provider_request_duration_seconds_count", { family: "vendorA", operation: "submit", outcome: "ok" })).toBe(1);
    expect(delta("svc_provider_request_duration_seconds_count", { family: "vendorA", operation: "submit", outcome: "failed" })).toBe(1);
    expect(delta("svc_provider_failures_total", { family: "vendorA", code: "safety_rejected" })).toBe(1);
    expect([delta("svc_callback_deliveries_total", { outcome: "retrying" }), delta("svc_callback_deliveries_total", { outcome: "delivered" })]).toEqual([1, 1]);
    expect(delta("svc_job_duration_seconds_count", { job: "execute_task", outcome: "ok" })).toBe(2);
  });
});

describe("queue and credit gauges", () => {
  it("show waiting jobs, their age, open tasks and held credits while no worker runs, read at scrape time", async () => {
    // The tests before leave jobs of tasks already ended (a canceled task's execute job) for the worker to drop;
    // a worker stopped before it ran them gives back those it had fetched, and they would be counted here.
    await eventually("the jobs of earlier tests to run", 10_000, async () =>
      series(await scrape(), "svc_jobs_queue_depth", { job: "execute_task" }) === 0 ? true : undefined,
    );
    await h.stopWorker();
    try {
      const queued = await speak("metrics-queued");
      await new Promise((resolve) => setTimeout(resolve, 50));
      const text = await scrape();
      expect(series(text, "svc_database_up")).toBe(1);
      expect(series(text, "svc_jobs_queue_depth", { job: "execute_task" })).toBe(1);
      expect(series(text, "svc_jobs_oldest_waiting_seconds")).toBeGreaterThan(0);
      expect(series(text, "svc_tasks_open", { capability: "text_to_speech", status: "queued" })).toBe(1);
      const held = Number((await h.request("GET", "/v1/credits")).body.held_credits);
      expect(held).toBeGreaterThan(0);
      expect(series(text, "svc_credits_held")).toBeCloseTo(held, 6);
      expect(queued.status).toBe(202);
    } finally {
      await h.startWorker();
    }
  });
});

describe("HTTP metrics", () => {
  it("label requests by route template, method and status, never by raw path", async () => {
    const before = await scrape();
    const created = await speak("metrics-http");
    await h.request("GET", `/v1/tasks/${created.body.task_id}`);
    await h.request("GET", "/v1/tasks/task_does_not_exist");
    await h.request("GET", `/no/such/route/${created.body.task_id}`);
    const after = await scrape();
    const delta = (labels: Record<string, string>) => series(after, "svc_http_requests_total", labels) - series(before, "svc_http_requests_total", labels);
    expect(delta({ route: "/v1/audio/speech", method: "POST", status: "202" })).toBe(1);
    expect(delta({ route: "/v1/tasks/:task_id", method: "GET", status: "200" })).toBe(1);
    expect(delta({ route: "/v1/tasks/:task_id", method: "GET", status: "404" })).toBe(1);
    expect(delta({ route: "unmatched", method: "GET", status: "404" })).toBe(1);
    expect(after).not.toContain(created.body.task_id);
    expect(series(after, "svc_http_request_duration_seconds_count", { route: "/v1/audio/speech", method: "POST", status: "202" })).toBeGreaterThan(0);
  });
});

describe("metric names", () => {
  const declared = async () =>
    [...(await scrape()).matchAll(/^# TYPE (svc_\w+) (\w+)$/gm)].map((m) => ({ name: m[1] as string, type: m[2] as string }));

  it("follow Prometheus conventions: counters end in _total, durations are histograms in seconds", async () => {
    const metrics = await declared();
    expect(metrics.length).toBeGreaterThan(10);
    for (const { name, type } of metrics) {
      expect(name).toMatch(/^svc_[a-z][a-z0-9_]*[a-z]$/);
      if (type === "counter") expect(name).toMatch(/_total$/);
      if (name.includes("duration")) expect({ name, type }).toEqual({ name: expect.stringMatching(/_seconds$/), type: "histogram" });
    }
  });

  it("are each listed in the README", async () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
    const section = readme.slice(readme.indexOf("### Metrics"), readme.indexOf("### Logs"));
    const listed = new Set([...section.matchAll(/^\| `(svc_[a-z0-9_]+)` \|/gm)].map((m) => m[1]));
    const metrics = (await declared()).map((m) => m.name);
    expect(metrics.filter((name) => !listed.has(name))).toEqual([]);
    expect([...listed].filter((name) => !metrics.includes(name as string))).toEqual([]);
  });
});
