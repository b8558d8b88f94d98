import { randomUUID } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balance, ledgerEntries, startHarness, waitForTask, type Harness } from "../support/harness.js";

// Issue 31, from outside: tenant A submits 12 image-understanding tasks whose image URL sends one byte a second;
// tenant B's speech task, submitted 1.5 s later, still succeeds within 15 s. Before, each dripping download held
// a worker slot for the whole fetch time, retried, and A's tasks held all 4 slots for minutes. Now a tenant holds
// at most half of them (TENANT_WORKER_SLOTS, by default half of WORKER_CONCURRENCY, 4 here), the rest wait
// without a slot, and a download under the minimum rate is cut off after one window and not retried.
const DRIP_WINDOW_MS = 6000;

let h: Harness;
let host: Server;
let dripUrl: string;
const drips = new Set<ServerResponse>();
let requests = 0;

beforeAll(async () => {
  host = createServer((_request, response) => {
    requests++;
    drips.add(response);
    response.on("close", () => drips.delete(response));
    response.writeHead(200, { "content-type": "image/png" });
    const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write("x")), 1000);
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  dripUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/photo.png`;
  h = await startHarness({
    worker: true,
    credits: "100",
    env: {
      OUTBOUND_ALLOW_LOOPBACK_HTTP: "true",
      // The default share of a worker of 4 (the harness gives its tests' one tenant the whole worker).
      TENANT_WORKER_SLOTS: "2",
      // The whole-time limit out of the way: the rate is what ends the downloads.
      MEDIA_FETCH_TIMEOUT_MS: "120000",
      MEDIA_FETCH_FIRST_BYTE_TIMEOUT_MS: "5000",
      MEDIA_FETCH_MIN_BYTES_PER_SECOND: "1024",
      MEDIA_FETCH_RATE_WINDOW_MS: String(DRIP_WINDOW_MS),
    },
  });
});
afterAll(async () => {
  await h?.close();
  for (const response of drips) response.destroy();
  await new Promise((resolve) => host?.close(resolve));
});

async function slotsHeldBy(tenantId: string): Promise<number> {
  const rows = await h.core.db.execute<{ n: number }>(sql`select count(*)::int as n from tasks where tenant_id = ${tenantId} and tenant_slot is not null`);
  return rows[0]?.n ?? 0;
}

describe("one tenant's dripping media inputs", () => {
  it("do not hold another tenant's task, and end failed media_fetch_failed, refunded exactly", { timeout: 240_000 }, async () => {
    const noisy = await h.newTenant("100");
    const before = await balance(h, noisy.tenantId);

    const dripping: string[] = [];
    for (let i = 0; i < 12; i++) {
      const created = await h.request("POST", "/v1/images/responses", {
        apiKey: noisy.apiKey,
        body: { model: "vendorA-M3", prompt: "What is in this photo?", images: [{ type: "url", url: dripUrl }] },
        idempotencyKey: randomUUID(),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      dripping.push(created.body.task_id);
    }

    // How many slots the noisy tenant holds, sampled until its tasks have all ended.
    let mostSlots = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        mostSlots = Math.max(mostSlots, await slotsHeldBy(noisy.tenantId));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const ended: { status: string; error: { code: string } }[] = [];
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const speech = await h.request("POST", "/v1/audio/speech", {
        body: { voice: "en_female_aria", input: "Still on time." },
        idempotencyKey: randomUUID(),
      });
      expect(speech.status, JSON.stringify(speech.body)).toBe(202);
      const spoken = await waitForTask(h, speech.body.task_id, ["succeeded", "failed", "canceled"], { timeoutMs: 15_000 });
      expect(spoken.status, JSON.stringify(spoken.error)).toBe("succeeded");

      for (const taskId of dripping) {
        ended.push(await waitForTask(h, taskId, ["succeeded", "failed", "canceled"], { timeoutMs: 180_000, apiKey: noisy.apiKey }));
      }
    } finally {
      sampling = false;
      await sampler;
    }

    for (const task of ended) {
      expect(task.status).toBe("failed");
      expect(task.error).toMatchObject({ code: "media_fetch_failed", param: "/images/0/url", details: { reason: "too_slow" } });
    }
    expect(mostSlots).toBeLessThanOrEqual(2);
    // Each download was tried once: a source under the rate is not tried again.
    expect(requests).toBe(12);
    const ledger = await ledgerEntries(h, noisy.tenantId);
    for (const taskId of dripping) expect(ledger.filter((entry) => entry.task_id === taskId).map((entry) => entry.kind)).toEqual(["hold", "release"]);
    expect(await balance(h, noisy.tenantId)).toEqual(before);
  });
});
