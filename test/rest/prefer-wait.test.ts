import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";
import { eventually } from "../support/wait.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: true, credits: "100" });
});
afterAll(async () => {
  await h?.close();
});

const SPEECH = { voice: "en_female_aria", input: "Waiting on the server.", format: "wav", sample_rate: 16000 };

describe("Prefer: wait", () => {
  it("answers a create once the task has ended, with Preference-Applied", async () => {
    await h.startWorker();
    const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "wait-create-1", body: SPEECH, headers: { prefer: "wait=60" } });
    expect(created.status).toBe(202);
    expect(created.headers.get("preference-applied")).toBe("wait=60");
    expect(created.body.status).toBe("succeeded");
    expect(created.body.output.artifacts[0].url).toMatch(/^http/);
  });

  it("answers GET /v1/tasks/{id} once the task has ended", async () => {
    await h.stopWorker();
    const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "wait-get-1", body: SPEECH });
    expect(created.body.status).toBe("queued");
    const waiting = h.request("GET", `/v1/tasks/${created.body.task_id}`, { headers: { prefer: "wait=60" } });
    await h.startWorker();
    const read = await waiting;
    expect(read.status).toBe(200);
    expect(read.headers.get("preference-applied")).toBe("wait=60");
    expect(read.body.status).toBe("succeeded");
    expect(read.body.billing.charged_credits).toBe(created.body.billing.charged_credits);
  });

  it("answers with the task as it stands when the wait is over, and caps the wait at 60 seconds", async () => {
    await h.stopWorker();
    const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "wait-open-1", body: SPEECH, headers: { prefer: "wait=1" } });
    expect(created.status).toBe(202);
    expect(created.headers.get("preference-applied")).toBe("wait=1");
    expect(created.body.status).toBe("queued");
    const ended = await h.request("POST", `/v1/tasks/${created.body.task_id}/cancel`, { body: {} });
    expect(ended.body.status).toBe("canceled");
    const read = await h.request("GET", `/v1/tasks/${created.body.task_id}`, { headers: { prefer: "respond-async, wait=600" } });
    expect(read.headers.get("preference-applied")).toBe("wait=60");
    expect(read.body.status).toBe("canceled");
  });

  it("ignores a malformed preference, and waits on no task but the tenant's own", async () => {
    const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "wait-own-1", body: SPEECH });
    const plain = await h.request("GET", `/v1/tasks/${created.body.task_id}`, { headers: { prefer: "wait=soon" } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("preference-applied")).toBeNull();
    const other = await h.newTenant();
    const foreign = await h.request("GET", `/v1/tasks/${created.body.task_id}`, { apiKey: other.apiKey, headers: { prefer: "wait=5" } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("task_not_found");
    // A refusal applied no preference.
    expect(foreign.headers.get("preference-applied")).toBeNull();
  });

  it("still wakes waiters after the listening connection was lost", async () => {
    await h.stopWorker();
    const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: "wait-relisten-1", body: SPEECH });
    const waiting = h.request("GET", `/v1/tasks/${created.body.task_id}`, { headers: { prefer: "wait=60" } });
    // The server's listening connection, ended as a database restart or a network cut would end it.
    await eventually("the REST process's LISTEN connection", 30_000, async () => {
      const ended = await h.core.reads`
        select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen%'`;
      return ended.length > 0 ? true : undefined;
    });
    await h.startWorker();
    const read = await waiting;
    expect(read.body.status).toBe("succeeded");
  });
});
