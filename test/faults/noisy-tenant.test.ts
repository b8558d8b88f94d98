import { randomUUID } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balance, ledgerEntries, startHarness, waitForTask, type Harness } from "../support/harness.js";

// Issues 31 and 38, from outside: tenants A and B each submit 12 image-understanding tasks whose image URL sends one
// byte a second, in turns; tenant C's speech task, submitted 1.5 s later, still succeeds within 15 s. Each dripping
// download holds a worker until it is cut off, after one window under the minimum rate (and is not retried); the
// fair share (core/db/statements/start-tasks.ts) gives A and B two of the 4 workers each, and the first worker to
// free goes to C, which holds none.
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

async function workersHeldBy(tenantId: string): Promise<number> {
  const rows = await h.core.db.execute<{ n: number }>(sql`select count(*)::int as n from tasks where tenant_id = ${tenantId} and tenant_slot_until is not null`);
  return rows[0]?.n ?? 0;
}

describe("two tenants' dripping media inputs", () => {
  it("do not hold a third tenant's task, share the workers evenly, and end failed media_fetch_failed, refunded exactly", { timeout: 240_000 }, async () => {
    const noisy = [await h.newTenant("100"), await h.newTenant("100")];
    const before = await Promise.all(noisy.map((tenant) => balance(h, tenant.tenantId)));

    // How many workers each noisy tenant holds, sampled until their tasks have all ended.
    const mostHeld = [0, 0];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const [i, tenant] of noisy.entries()) mostHeld[i] = Math.max(mostHeld[i] as number, await workersHeldBy(tenant.tenantId));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const dripping: { taskId: string; apiKey: string; tenant: number }[] = [];
    const ended: { status: string; error: { code: string } }[] = [];
    try {
      for (let i = 0; i < 24; i++) {
        const tenant = i % 2;
        const { apiKey } = noisy[tenant] as { apiKey: string };
        const created = await h.request("POST", "/v1/images/responses", {
          apiKey,
          body: { model: "vendorA-M3", prompt: "What is in this photo?", images: [{ type: "url", url: dripUrl }] },
          idempotencyKey: randomUUID(),
        });
        expect(created.status, JSON.stringify(created.body)).toBe(202);
        dripping.push({ taskId: created.body.task_id, apiKey, tenant });
      }

      await new Promise((resolve) => setTimeout(resolve, 1500));
      const speech = await h.request("POST", "/v1/audio/speech", {
        body: { voice: "en_female_aria", input: "Still on time." },
        idempotencyKey: randomUUID(),
      });
      expect(speech.status, JSON.stringify(speech.body)).toBe(202);
      const spoken = await waitForTask(h, speech.body.task_id, ["succeeded", "failed", "canceled"], { timeoutMs: 15_000 });
      expect(spoken.status, JSON.stringify(spoken.error)).toBe("succeeded");

      for (const { taskId, apiKey } of dripping) {
        ended.push(await waitForTask(h, taskId, ["succeeded", "failed", "canceled"], { timeoutMs: 180_000, apiKey }));
      }
    } finally {
      sampling = false;
      await sampler;
    }

    for (const task of ended) {
      expect(task.status).toBe("failed");
      expect(task.error).toMatchObject({ code: "media_fetch_failed", param: "/images/0/url", details: { reason: "too_slow" } });
    }
    // Two workers of the four each, never more: the other tenant always had tasks waiting.
    expect(mostHeld).toEqual([2, 2]);
    // Each download was tried once: a source under the rate is not tried again.
    expect(requests).toBe(24);
    for (const [i, tenant] of noisy.entries()) {
      const ledger = await ledgerEntries(h, tenant.tenantId);
      for (const { taskId } of dripping.filter((task) => task.tenant === i)) {
        expect(ledger.filter((entry) => entry.task_id === taskId).map((entry) => entry.kind)).toEqual(["hold", "release"]);
      }
      expect(await balance(h, tenant.tenantId)).toEqual(before[i]);
    }
  });
});
