import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFfmpeg } from "../../core/media/ffmpeg.js";
import { setRunningLimit } from "../../core/tasks/running-limits.js";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";
import { admitEnhancement } from "../support/enhancement.js";

// Issue 38, from outside, with the defaults (a worker of 4, no limit set): a tenant alone drains a backlog of
// worker-holding tasks as fast as two tenants drain the same work; another tenant's task starts at once beside
// a tenant's 1,000 queued tasks; and a vendor family limited to 2 running tasks queues the rest of its tasks, all
// of which succeed, while other families' tasks go on beside them.

const DOWNLOAD_MS = 2000;
// MEDIA_FETCH_TIMEOUT_MS's default (core/config.ts).
const MEDIA_FETCH_DEFAULT_MS = 30_000;
const ENDED = ["succeeded", "failed", "canceled"];

let h: Harness;
let origin: Server;
let slowImageUrl: string;
beforeAll(async () => {
  const png = await runFfmpeg(["-f", "lavfi", "-i", "color=c=blue:s=64x48", "-frames:v", "1", "-f", "image2", "-c:v", "png", "pipe:1"]);
  // An image origin that takes DOWNLOAD_MS to answer: each task holds a worker that long while its input downloads.
  origin = createServer((_request, response) => {
    setTimeout(() => response.writeHead(200, { "content-type": "image/png" }).end(png), DOWNLOAD_MS);
  });
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  slowImageUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/photo.png`;
  // Loopback HTTP allowed for the slow origin, and the downloads' time limit back at its default (the harness
  // shortens it); nothing else differs from the defaults a worker of 4 has.
  h = await startHarness({ worker: true, credits: "1000", env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true", MEDIA_FETCH_TIMEOUT_MS: String(MEDIA_FETCH_DEFAULT_MS) } });
});
afterAll(async () => {
  await h?.close();
  origin?.closeAllConnections();
  await new Promise((resolve) => origin?.close(resolve));
});

async function understand(apiKey: string): Promise<string> {
  const created = await h.request("POST", "/v1/images/responses", {
    apiKey,
    body: { model: "vendorA-M3", prompt: "What is in this photo?", images: [{ type: "url", url: `${slowImageUrl}?n=${randomUUID()}` }] },
    idempotencyKey: randomUUID(),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  return created.body.task_id as string;
}

interface Times {
  created: number;
  started: number;
  completed: number;
}

async function times(ids: string[]): Promise<Times[]> {
  const rows = await h.core.db.execute<{ created: number; started: number; completed: number }>(sql`
    select extract(epoch from created_at) * 1000 as created, extract(epoch from started_at) * 1000 as started,
           extract(epoch from completed_at) * 1000 as completed
    from tasks where id = any(${sql.param(ids)}::text[])`);
  return rows.map((row) => ({ created: Number(row.created), started: Number(row.started), completed: Number(row.completed) }));
}

const span = (rows: Times[]) => Math.max(...rows.map((r) => r.completed)) - Math.min(...rows.map((r) => r.created));

// The most workers held at once by the tasks given, sampled until `done` settles.
async function mostHeld(tenantIds: string[], done: Promise<unknown>): Promise<number> {
  let most = 0;
  let sampling = true;
  void done.finally(() => (sampling = false));
  while (sampling) {
    const rows = await h.core.db.execute<{ n: number }>(
      sql`select count(*)::int as n from tasks where tenant_id = any(${sql.param(tenantIds)}::text[]) and tenant_slot_until is not null`,
    );
    most = Math.max(most, rows[0]?.n ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return most;
}

async function drain(tenants: { apiKey: string; tenantId: string }[], tasks: number): Promise<{ span: number; held: number }> {
  const ids: { id: string; apiKey: string }[] = [];
  for (let i = 0; i < tasks; i++) {
    const tenant = tenants[i % tenants.length] as { apiKey: string };
    ids.push({ id: await understand(tenant.apiKey), apiKey: tenant.apiKey });
  }
  const ended = Promise.all(ids.map(({ id, apiKey }) => waitForTask(h, id, ENDED, { apiKey, timeoutMs: 60_000 })));
  const held = await mostHeld(
    tenants.map((t) => t.tenantId),
    ended,
  );
  for (const task of await ended) expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
  return { span: span(await times(ids.map(({ id }) => id))), held };
}

describe("the fair share with the defaults", () => {
  it("lets a tenant alone use every worker: its backlog drains as fast as two tenants' of the same work", { timeout: 120_000 }, async () => {
    // A first drain warms the worker (compiled code, connections, the origin's sockets), which would otherwise be
    // counted against whichever drain came first: under load that alone was 1.2× the second.
    await drain([await h.newTenant("100")], 4);
    const alone = await drain([await h.newTenant("100")], 12);
    const shared = await drain([await h.newTenant("100"), await h.newTenant("100")], 12);
    // Four workers held by the lone tenant, as by the two together; 12 downloads of 2 s take three rounds either way.
    expect(alone.held).toBe(4);
    expect(shared.held).toBe(4);
    expect(alone.span / shared.span, `alone ${alone.span} ms, two tenants ${shared.span} ms`).toBeLessThanOrEqual(1.1);
  });

  it("starts another tenant's task at once while a tenant has 1,000 tasks queued", { timeout: 180_000 }, async () => {
    const flooding = await h.newTenant("1000");
    const other = await h.newTenant("100");
    await h.stopWorker();
    for (let batch = 0; batch < 50; batch++) {
      await Promise.all(Array.from({ length: 20 }, () => admitEnhancement(h, { apiKey: flooding.apiKey })));
    }
    await h.startWorker();
    const mine: string[] = [];
    for (let i = 0; i < 20; i++) {
      mine.push(await admitEnhancement(h, { apiKey: other.apiKey }));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const id of mine) await waitForTask(h, id, ["succeeded"], { apiKey: other.apiKey });
    const waited = (await times(mine)).map((t) => t.started - t.created).sort((a, b) => a - b);
    const stillQueued = await h.core.db.execute<{ n: number }>(
      sql`select count(*)::int as n from tasks where tenant_id = ${flooding.tenantId} and started_at > (select max(started_at) from tasks where id = any(${sql.param(mine)}::text[]))`,
    );
    // The flood was still waiting when the last of the other tenant's tasks started: the measure is beside it.
    expect(stillQueued[0]?.n).toBeGreaterThan(0);
    expect(waited.at(-1), `admission → start: ${waited.join(", ")} ms`).toBeLessThanOrEqual(500);
  });

  it("queues a vendor family's tasks past its limit, all succeeding, while other families' tasks go on", { timeout: 180_000 }, async () => {
    const tenant = await h.newTenant("1000");
    expect(await setRunningLimit(h.core.db, "family", "vendorF", { maxRunning: 2 })).toBe(true);
    try {
      const images: string[] = [];
      for (let i = 0; i < 20; i++) {
        const created = await h.request("POST", "/v1/images/generations", {
          apiKey: tenant.apiKey,
          body: { model: "vendorF-image-2.0", prompt: `a lighthouse at dusk, take ${i}` },
          idempotencyKey: randomUUID(),
        });
        expect(created.status, JSON.stringify(created.body)).toBe(202);
        images.push(created.body.task_id);
      }
      const speech: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await h.request("POST", "/v1/audio/speech", {
          apiKey: tenant.apiKey,
          body: { voice: "en_female_aria", input: `Beside the images, line ${i}.` },
          idempotencyKey: randomUUID(),
        });
        expect(created.status, JSON.stringify(created.body)).toBe(202);
        speech.push(created.body.task_id);
      }
      const ended = Promise.all([...images, ...speech].map((id) => waitForTask(h, id, ENDED, { apiKey: tenant.apiKey, timeoutMs: 120_000 })));
      let mostRunning = 0;
      let sampling = true;
      void ended.finally(() => (sampling = false));
      while (sampling) {
        const rows = await h.core.db.execute<{ n: number }>(sql`select count(*)::int as n from tasks where provider_family = 'vendorF' and status = 'running'`);
        mostRunning = Math.max(mostRunning, rows[0]?.n ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const task of await ended) expect(task.status, JSON.stringify(task.error)).toBe("succeeded");
      expect(mostRunning).toBe(2);
      // The speech tasks, admitted behind 20 images, ended before the last images started: not queued behind them.
      const lastImageStart = Math.max(...(await times(images)).map((t) => t.started));
      for (const t of await times(speech)) expect(t.completed).toBeLessThan(lastImageStart);
    } finally {
      await setRunningLimit(h.core.db, "family", "vendorF", { maxRunning: null });
    }
  });
});
