import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";
import { startReceiver, type Receiver } from "./receiver.js";
import { admitEnhancement } from "../support/enhancement.js";

// Issue 31: a receiver that takes its whole time on every delivery delays only its own tenant's callbacks. Each
// delivery holds a delivery slot of its tenant (core/tasks/tenant-slots.ts): by default a quarter of the worker's
// 4 here, one; the tenant's other deliveries wait without a slot, and another tenant's callback goes out beside
// them.

let h: Harness;
let fast: Receiver;
let slow: Server;
let slowUrl: string;
let open = 0;
let mostOpen = 0;
const hanging = new Set<ServerResponse>();

beforeAll(async () => {
  // Reads each delivery and never answers: the worker gives up after CALLBACK_TIMEOUT_MS.
  slow = createServer((request, response) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    hanging.add(response);
    request.resume();
    response.on("close", () => {
      open--;
      hanging.delete(response);
    });
  });
  await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`;
  fast = await startReceiver();
  // A delivery given 30 s instead of 10, so that the other tenant's callback has time to spare on a busy machine.
  h = await startHarness({
    worker: true,
    env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true", CALLBACK_TIMEOUT_MS: "30000" },
  });
});
afterAll(async () => {
  await h?.close();
  await fast?.close();
  for (const response of hanging) response.destroy();
  await new Promise((resolve) => slow?.close(resolve));
});

const enhancement = (callbackUrl: string, apiKey?: string) => admitEnhancement(h, { callbackUrl, ...(apiKey === undefined ? {} : { apiKey }) });

describe("a callback receiver that never answers in time", () => {
  it("holds one slot of its tenant's, and another tenant's callback goes out before any of its attempts ends", { timeout: 60_000 }, async () => {
    const noisy = await h.newTenant("100");
    const tasks: string[] = [];
    for (let i = 0; i < 6; i++) tasks.push(await enhancement(slowUrl, noisy.apiKey));
    for (const taskId of tasks) await waitForTask(h, taskId, ["succeeded"], { apiKey: noisy.apiKey });

    const quiet = await enhancement(`${fast.url}/hooks`);
    const [delivered] = await fast.waitForRequests(1, 20_000);
    expect(delivered?.body).toMatchObject({ event_type: "task.succeeded", task: { task_id: quiet } });

    // Every attempt at the slow receiver runs its whole time; none had ended when the other tenant's arrived.
    for (const taskId of tasks) {
      const task = (await h.request("GET", `/v1/tasks/${taskId}`, { apiKey: noisy.apiKey })).body;
      expect(task.callback).toMatchObject({ attempt_count: 0 });
    }
    expect(mostOpen).toBe(1);
  });
});
