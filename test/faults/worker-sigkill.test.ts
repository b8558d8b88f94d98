import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../callbacks/receiver.js";
import { waitForCallback } from "../callbacks/support.js";
import { emulatorRequests, queueFault } from "../support/emulator-control.js";
import { ledgerEntries, startHarness, waitForTask, type Harness } from "../support/harness.js";
import { spawnEntry, type SpawnedEntry } from "../support/service-process.js";
import { eventually } from "../support/wait.js";

// A worker process killed with SIGKILL in the middle of a task, the way a machine dies: graphile-worker keeps the
// job locked by the dead process, and another worker process takes it over once the dead one's liveness session
// has been gone WORKER_LOST_AFTER_MS (here 1 s). The task still ends exactly once: one hold and one settlement,
// one callback event.
let h: Harness;
let receiver: Receiver;
const workers: SpawnedEntry[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  h = await startHarness({ env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true", WORKER_LOST_AFTER_MS: "1000", WORKER_POLL_INTERVAL_MS: "200" } });
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill("SIGKILL")));
  await receiver?.close();
  await h?.close();
});

function startWorkerProcess(): SpawnedEntry {
  const worker = spawnEntry("worker/main.ts", { ...h.env, WORKER_PORT: "0", LOG_LEVEL: "warn" });
  workers.push(worker);
  return worker;
}

async function vendorSubmissions(): Promise<number> {
  return (await emulatorRequests(h)).filter((request) => request.path.endsWith("/t2a_v2")).length;
}

describe("a worker killed with SIGKILL mid-task", () => {
  it("leaves the task to another worker, which ends it exactly once, charged once", async () => {
    // The first submission hangs at the vendor, so the first worker is surely mid-task when it dies.
    await queueFault(h, { family: "vendorA", kind: "hang", times: 1 });
    const first = startWorkerProcess();
    const created = await h.request("POST", "/v1/audio/speech", {
      idempotencyKey: "sigkill-1",
      body: { voice: "en_female_aria", input: "Killed mid-task.", callback_url: `${receiver.url}/hooks` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const taskId: string = created.body.task_id;
    await eventually(`the first worker never submitted (${first.output()})`, 30_000, async () => ((await vendorSubmissions()) === 1 ? true : undefined));
    expect((await h.request("GET", `/v1/tasks/${taskId}`)).body.status).toBe("running");

    expect(await first.kill("SIGKILL")).toEqual({ code: null, signal: "SIGKILL" });
    const second = startWorkerProcess();
    const task = await waitForTask(h, taskId, ["succeeded", "failed", "canceled"], { timeoutMs: 45_000 }).catch((error: Error) => {
      throw new Error(`${error.message}; second worker: ${second.output()}`);
    });

    expect(task.status).toBe("succeeded");
    expect(task.output.artifacts).toHaveLength(1);
    expect(await vendorSubmissions()).toBe(2);
    const ledger = (await ledgerEntries(h)).filter((entry) => entry.task_id === taskId);
    expect(ledger.map((entry) => entry.kind)).toEqual(["hold", "capture"]);
    expect(ledger[1]?.amount).toBe(ledger[0]?.amount);
    expect(task.billing.charged_credits).toBe(task.billing.net_charged_credits);

    // One terminal transition, so one event, delivered by one attempt.
    const deliveries = await receiver.waitForRequests(1);
    expect(deliveries.map((request) => [request.body.event_type, request.body.task.task_id])).toEqual([["task.succeeded", taskId]]);
    const { callback } = await waitForCallback(h, taskId, (c) => c.status === "delivered", 10_000);
    expect(callback.attempt_count).toBe(1);
    expect(second.running()).toBe(true);
  }, 90_000);
});
