import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { emulatorRequests, queueFault } from "../support/emulator-control.js";
import { ledgerEntries, type Harness } from "../support/harness.js";

// Helpers shared by the video provider tests: creating and following tasks, scripting emulator faults, and
// reading what the emulated vendors saw.

export const TERMINAL = ["succeeded", "failed", "canceled"];

// The emulator hands scripted faults out per family and model, so the tests that use one model run one after
// another (in the order they were declared) while tests on different models run side by side.
export function modelLanes() {
  const lanes = new Map<string, Promise<unknown>>();
  return function onModel<T>(model: string, work: () => Promise<T>): Promise<T> {
    const next = (lanes.get(model) ?? Promise.resolve()).catch(() => undefined).then(work);
    lanes.set(model, next);
    return next;
  };
}

export async function createTask(h: Harness, path: string, body: Record<string, unknown>) {
  const response = await h.request("POST", path, { body, idempotencyKey: randomUUID() });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  return response.body as { task_id: string; billing: { charged_credits: string } };
}

// Follows a task to a terminal state, keeping every progress percentage seen on the way.
export async function followTask(h: Harness, taskId: string, timeoutMs = 45_000) {
  const percents: number[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await h.request("GET", `/v1/tasks/${taskId}`);
    if (TERMINAL.includes(body.status)) return { task: body, percents };
    if (body.status === "running" && percents.at(-1) !== body.progress.percent) percents.push(body.progress.percent);
    if (Date.now() > until) throw new Error(`task ${taskId} is still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export { queueFault };

// Submissions (not status reads) the emulated vendor received for a model.
export async function vendorSubmits(h: Harness, family: string, model: string): Promise<number> {
  const received = await emulatorRequests(h);
  return received.filter((r) => r.family === family && r.model === model).length;
}

// Waits until the worker has submitted the task and holds the vendor's job reference; returns the reference.
export async function vendorJobOf(h: Harness, taskId: string, timeoutMs = 15_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await h.core.db.execute<{ status: string; provider_ref: string | null }>(
      sql`select status, provider_ref from tasks where id = ${taskId}`,
    );
    const row = rows[0];
    if (row?.status === "running" && row.provider_ref) return row.provider_ref;
    if (Date.now() > until) throw new Error(`task ${taskId} never reached its vendor (${row?.status})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function moveDeadlineToOneSecondFromNow(h: Harness, taskId: string): Promise<void> {
  await h.core.db.execute(sql`update tasks set deadline_at = now() + interval '1 second' where id = ${taskId}`);
}

// A failed or canceled generation gives back everything it was charged at admission.
export async function expectFullRefund(h: Harness, task: { task_id: string; billing: Record<string, string> }) {
  expect(task.billing.charged_credits).not.toBe("0.000000");
  expect(task.billing.refunded_credits).toBe(task.billing.charged_credits);
  expect(task.billing.net_charged_credits).toBe("0.000000");
  await expectHoldReleased(h, task.task_id);
}

// The credits held for the task went back whole: one hold, one release of the same amount, nothing captured.
export async function expectHoldReleased(h: Harness, taskId: string) {
  const entries = (await ledgerEntries(h)).filter((e) => e.task_id === taskId);
  expect(entries.map((e) => e.kind)).toEqual(["hold", "release"]);
  expect(entries[1]?.amount).toBe(entries[0]?.amount);
}

export async function download(url: string): Promise<Buffer> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}
