import { createDecipheriv, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balance, countRows, startHarness, TEST_CALLBACK_SECRET_KEY, type Harness } from "../support/harness.js";
import { startReceiver, type Receiver } from "./receiver.js";
import { hmacHex, readmeSignatureCheck, signatureParts, SPEECH, waitForCallback } from "./support.js";

// The signing-key API of docs/decisions.md, SPEC.md's creation errors, secrets encrypted at rest, and rotation's
// grace period as a receiver sees it.
let h: Harness;
const receivers: Receiver[] = [];
beforeAll(async () => {
  h = await startHarness({ worker: true, env: { OUTBOUND_ALLOW_LOOPBACK_HTTP: "true", WORKER_POLL_INTERVAL_MS: "20" } });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await h?.close();
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

async function createKey(apiKey?: string) {
  const created = await h.request("POST", "/v1/callback-signing-keys", { body: { name: "orders" }, apiKey });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: string; secret: string; status: string };
}

function createSpeech(body: Record<string, unknown>) {
  return h.request("POST", "/v1/audio/speech", { idempotencyKey: randomUUID(), body: { ...SPEECH, ...body } });
}

// Decrypts a stored secret the way docs/decisions.md describes it, independently of the service's code.
function openSealed(sealed: string, keyId: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".") as [string, string, string, string];
  expect(version).toBe("v1");
  const decipher = createDecipheriv("aes-256-gcm", Buffer.from(TEST_CALLBACK_SECRET_KEY, "base64"), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(keyId));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

async function storedRow(keyId: string) {
  const rows = await h.core.db.execute<{ secret_ciphertext: string | null; previous_secret_ciphertext: string | null }>(
    sql`select secret_ciphertext, previous_secret_ciphertext from callback_signing_keys where id = ${keyId}`,
  );
  return rows[0]!;
}

describe("managing signing keys", () => {
  it("creates a key whose secret is shown once and stored only encrypted", async () => {
    const key = await createKey();
    expect(key).toMatchObject({ object: "callback_signing_key", name: "orders", status: "active", rotated_at: null, retired_at: null });
    expect(key.id).toMatch(/^csk_[0-9a-z]{26}$/);
    expect(key.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const read = await h.request("GET", `/v1/callback-signing-keys/${key.id}`);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(read.body).toEqual({ ...key, secret: undefined, previous_secret_expires_at: null });
    const list = await h.request("GET", "/v1/callback-signing-keys");
    expect(list.body.data.find((k: { id: string }) => k.id === key.id)).toBeDefined();
    expect(JSON.stringify(list.body)).not.toContain("whsec_");

    const stored = await storedRow(key.id);
    expect(stored.secret_ciphertext).not.toContain(key.secret.slice(6));
    expect(openSealed(stored.secret_ciphertext!, key.id)).toBe(key.secret);
    // Bound to its row: the same ciphertext does not open as another key's.
    expect(() => openSealed(stored.secret_ciphertext!, "csk_another")).toThrow();
  });

  it("lists newest first, a page at a time", async () => {
    const t = await h.newTenant("1");
    const first = await createKey(t.apiKey);
    const second = await createKey(t.apiKey);
    const page1 = await h.request("GET", "/v1/callback-signing-keys?limit=1", { apiKey: t.apiKey });
    expect(page1.body).toMatchObject({ object: "list", has_more: true });
    expect(page1.body.data.map((k: { id: string }) => k.id)).toEqual([second.id]);
    const page2 = await h.request("GET", `/v1/callback-signing-keys?limit=1&cursor=${page1.body.next_cursor}`, { apiKey: t.apiKey });
    expect(page2.body.data.map((k: { id: string }) => k.id)).toEqual([first.id]);
    expect(page2.body).toMatchObject({ has_more: false, next_cursor: null });
    const bad = await h.request("GET", "/v1/callback-signing-keys?cursor=nope", { apiKey: t.apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_cursor");
  });

  it("answers 404 callback_signing_key_not_found for unknown and foreign keys", async () => {
    const other = await h.newTenant("1");
    const foreign = await createKey(other.apiKey);
    for (const id of ["csk_00000000000000000000000000", foreign.id]) {
      for (const [method, path] of [
        ["GET", `/v1/callback-signing-keys/${id}`],
        ["POST", `/v1/callback-signing-keys/${id}/rotate`],
        ["POST", `/v1/callback-signing-keys/${id}/retire`],
      ] as const) {
        const response = await h.request(method, path);
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.body.error.code).toBe("callback_signing_key_not_found");
      }
    }
    expect((await h.request("GET", `/v1/callback-signing-keys/${foreign.id}`, { apiKey: other.apiKey })).status).toBe(200);
  });

  it("belongs to the callbacks area of an API key", async () => {
    const tasksOnly = await h.newTenant("1", ["tasks"]);
    const refused = await h.request("GET", "/v1/callback-signing-keys", { apiKey: tasksOnly.apiKey });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "forbidden", details: { required_area: "callbacks" } });
    const allowed = await h.newTenant("1", ["callbacks"]);
    expect((await h.request("POST", "/v1/callback-signing-keys", { apiKey: allowed.apiKey, body: {} })).status).toBe(201);
  });

  it("validates bodies", async () => {
    const unknownField = await h.request("POST", "/v1/callback-signing-keys", { body: { colour: "red" } });
    expect(unknownField.body.error).toMatchObject({ code: "invalid_request", param: "/colour" });
    const key = await createKey();
    const negative = await h.request("POST", `/v1/callback-signing-keys/${key.id}/rotate`, { body: { grace_period_seconds: -1 } });
    expect(negative.body.error).toMatchObject({ code: "invalid_request", param: "/grace_period_seconds" });
    const tooLong = await h.request("POST", `/v1/callback-signing-keys/${key.id}/rotate`, { body: { grace_period_seconds: 604_801 } });
    expect(tooLong.status).toBe(422);
  });

  it("retires a key for good: idempotent, erased secrets, no rotation", async () => {
    const key = await createKey();
    const retired = await h.request("POST", `/v1/callback-signing-keys/${key.id}/retire`);
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({ id: key.id, status: "retired" });
    expect(retired.body.retired_at).not.toBeNull();
    expect((await h.request("POST", `/v1/callback-signing-keys/${key.id}/retire`)).body).toEqual(retired.body);
    expect(await storedRow(key.id)).toEqual({ secret_ciphertext: null, previous_secret_ciphertext: null });
    const rotate = await h.request("POST", `/v1/callback-signing-keys/${key.id}/rotate`);
    expect(rotate.status).toBe(422);
    expect(rotate.body.error.code).toBe("callback_signing_key_inactive");
  });
});

describe("creation errors (SPEC.md Events 8)", () => {
  it("refuse a key without a URL (422), an unknown or foreign key (404) and a retired key (422), creating nothing", async () => {
    const r = await receiver();
    const other = await h.newTenant("1");
    const foreign = await createKey(other.apiKey);
    const retired = await createKey();
    await h.request("POST", `/v1/callback-signing-keys/${retired.id}/retire`);
    const tasksBefore = await countRows(h, sql`select count(*)::int as n from tasks`);
    const before = await balance(h);

    const noUrl = await createSpeech({ callback_signing_key_id: retired.id });
    expect(noUrl.status).toBe(422);
    expect(noUrl.body.error).toMatchObject({ code: "callback_url_required", param: "/callback_signing_key_id" });
    for (const id of ["csk_00000000000000000000000000", foreign.id]) {
      const unknown = await createSpeech({ callback_url: `${r.url}/x`, callback_signing_key_id: id });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toMatchObject({ code: "callback_signing_key_not_found", param: "/callback_signing_key_id", retryable: false });
    }
    const inactive = await createSpeech({ callback_url: `${r.url}/x`, callback_signing_key_id: retired.id });
    expect(inactive.status).toBe(422);
    expect(inactive.body.error).toMatchObject({ code: "callback_signing_key_inactive", param: "/callback_signing_key_id" });

    expect(await countRows(h, sql`select count(*)::int as n from tasks`)).toBe(tasksBefore);
    expect(await balance(h)).toEqual(before);
    expect(r.requests).toHaveLength(0);
  });
});

describe("rotation and retirement as a receiver sees them", () => {
  it("during the grace period a delivery carries a v1 for the new and for the old secret; after it, only the new", async () => {
    const r = await receiver();
    const key = await createKey();
    const rotated = await h.request("POST", `/v1/callback-signing-keys/${key.id}/rotate`, { body: { grace_period_seconds: 3600 } });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.secret as string;
    expect(newSecret).not.toBe(key.secret);
    expect(rotated.body.rotated_at).not.toBeNull();
    const graceEnds = new Date(rotated.body.previous_secret_expires_at).getTime() - new Date(rotated.body.rotated_at).getTime();
    expect(graceEnds).toBe(3600_000);
    const stored = await storedRow(key.id);
    expect(openSealed(stored.previous_secret_ciphertext!, key.id)).toBe(key.secret);

    const during = await createSpeech({ callback_url: `${r.url}/grace`, callback_signing_key_id: key.id });
    const [first] = await r.waitForRequests(1);
    await waitForCallback(h, during.body.task_id, (c) => c.status === "delivered");
    const both = signatureParts(first!.headers["x-signature"] as string);
    // The old secret's v1 first, the new one's last: a receiver that keeps the last v1 of a map checks the new one.
    expect(both.v1).toEqual([hmacHex(key.secret, both.t, first!.rawBody), hmacHex(newSecret, both.t, first!.rawBody)]);
    const asMap = Object.fromEntries((first!.headers["x-signature"] as string).split(",").map((part) => part.split("=", 2)));
    expect(asMap.v1).toBe(hmacHex(newSecret, both.t, first!.rawBody));
    // A receiver still holding the old secret accepts it, and so does one already holding the new.
    expect(readmeSignatureCheck(key.secret)(first!.headers["x-signature"] as string, first!.rawBody)).toBe(true);
    expect(readmeSignatureCheck(newSecret)(first!.headers["x-signature"] as string, first!.rawBody)).toBe(true);

    const again = await h.request("POST", `/v1/callback-signing-keys/${key.id}/rotate`, { body: { grace_period_seconds: 0 } });
    expect(again.body.previous_secret_expires_at).toBeNull();
    const after = await createSpeech({ callback_url: `${r.url}/after`, callback_signing_key_id: key.id });
    const [, second] = await r.waitForRequests(2);
    await waitForCallback(h, after.body.task_id, (c) => c.status === "delivered");
    const one = signatureParts(second!.headers["x-signature"] as string);
    expect(one.v1).toEqual([hmacHex(again.body.secret, one.t, second!.rawBody)]);
    expect(readmeSignatureCheck(key.secret)(second!.headers["x-signature"] as string, second!.rawBody)).toBe(false);
  });

  it("a key retired before its task ends stops that task's deliveries instead of sending them unsigned", async () => {
    const r = await receiver();
    const key = await createKey();
    await h.stopWorker();
    const created = await createSpeech({ callback_url: `${r.url}/retired`, callback_signing_key_id: key.id });
    expect(created.status).toBe(202);
    await h.request("POST", `/v1/callback-signing-keys/${key.id}/retire`);
    await h.startWorker();
    const task = await waitForCallback(h, created.body.task_id, (c) => c.status === "failed");
    expect(task.status).toBe("succeeded");
    expect(task.callback.attempt_count).toBe(1);
    expect(task.callback.last_error).toContain("retired");
    expect(r.requests).toHaveLength(0);
    const redeliver = await h.request("POST", `/v1/tasks/${created.body.task_id}/callback/redeliver`);
    expect(redeliver.status).toBe(422);
    expect(redeliver.body.error.code).toBe("callback_signing_key_inactive");
  });
});
