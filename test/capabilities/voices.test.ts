import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITIES, findVoiceForTenant } from "../../core/index.js";
import { PRESET_VOICES } from "../../core/catalog/voices.js";
import { voices } from "../../core/db/schema/index.js";
import { timeOrderedId } from "../../core/ids.js";
import { balance, startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { specModelLists } from "../support/spec-models.js";

// POST /v1/voices (voice-clone admission) and the voice records: list with presets and the tenant's cloned
// voices, get, delete, tenant isolation and the lookup speech resolves voices with. Cloned voice rows are
// inserted directly, as a successful clone task would leave them. No worker.

const CLONE = "vendorA-voice-clone";
const SAMPLE = { type: "url", url: "https://example.com/sample.wav" };
const BOTH_SPEECH = ["vendorA-speech-2.8-hd", "vendorA-speech-2.8-turbo"];

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const clone = (body: Record<string, unknown>, apiKey?: string) =>
  h.request("POST", "/v1/voices", {
    body: { sample: SAMPLE, display_name: "My narrator", consent_attested: true, ...body },
    idempotencyKey: randomUUID(),
    ...(apiKey ? { apiKey } : {}),
  });

function expectInvalid(response: ApiResponse, param: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(response.body.error).toMatchObject({ code: "invalid_request", param });
}

let idClock = Date.parse("2026-01-01T00:00:00Z");
async function insertVoice(tenantId: string, fields: { status?: string; displayName?: string } = {}) {
  const id = timeOrderedId("voice", (idClock += 1000));
  await h.core.db.insert(voices).values({
    id,
    tenantId,
    displayName: fields.displayName ?? `clone ${id.slice(-4)}`,
    language: "en",
    models: BOTH_SPEECH,
    status: fields.status ?? "active",
    taskId: timeOrderedId("task", idClock),
  });
  return id;
}

describe("POST /v1/voices (voice clone)", () => {
  it("lists SPEC.md's models and is prepaid in the voices area", () => {
    const capability = CAPABILITIES.find((c) => c.id === "voice_clone");
    expect(capability?.modelIds).toEqual(specModelLists()["/v1/voices"]);
    expect(capability).toMatchObject({ path: "/v1/voices", area: "voices", billingMode: "prepaid" });
  });

  it("admits the minimal body and holds the one fixed clone charge", async () => {
    const tenant = await h.newTenant("10");
    const before = await balance(h, tenant.tenantId);
    const response = await clone({}, tenant.apiKey);
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect(response.body).toMatchObject({ status: "queued", capability: "voice_clone", model: "auto", resolved_model: CLONE });
    expect(response.body.billing.charged_credits).toBe("3.000000");
    const after = await balance(h, tenant.tenantId);
    expect(after.held - before.held).toBe(3_000_000n);
    expect(before.available - after.available).toBe(3_000_000n);
  });

  it("accepts a data URI or an artifact as the sample, and requires one", async () => {
    expect((await clone({ sample: "data:audio/wav;base64,UklGRg==" })).status).toBe(202);
    const upload = await h.request("POST", "/v1/assets", { body: { content_base64: Buffer.from("RIFF\0\0\0\0WAVE").toString("base64"), filename: "voice.wav" } });
    expect(upload.status).toBe(201);
    expect((await clone({ sample: { type: "artifact", artifact_id: upload.body.artifact_id } })).status).toBe(202);
    const unknown = await clone({ sample: { type: "artifact", artifact_id: "art_123" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: "artifact_not_found", param: "/sample/artifact_id" });
    expectInvalid(await clone({ sample: undefined }), "/sample");
  });

  it("bounds display_name at 1 to 255 characters", async () => {
    expect((await clone({ display_name: "é".repeat(255) })).status).toBe(202);
    expectInvalid(await clone({ display_name: "n".repeat(256) }), "/display_name");
    expectInvalid(await clone({ display_name: "" }), "/display_name");
    expectInvalid(await clone({ display_name: undefined }), "/display_name");
  });

  it("refuses anything but consent_attested: true", async () => {
    expectInvalid(await clone({ consent_attested: false }), "/consent_attested");
    expectInvalid(await clone({ consent_attested: undefined }), "/consent_attested");
    expectInvalid(await clone({ consent_attested: "true" }), "/consent_attested");
  });

  it("checks the language hint against the model's languages", async () => {
    expect((await clone({ language: "pt-BR" })).status).toBe(202);
    const refused = await clone({ model: CLONE, language: "sv" });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "unsupported_option", param: "/language" });
    expect(refused.body.error.details.candidate_failures[0]).toMatchObject({
      model: CLONE,
      code: "unsupported_language",
      received: "sv",
      supported: expect.arrayContaining(["en", "zh"]),
    });
    const auto = await clone({ language: "sv" });
    expect(auto.body.error.code).toBe("no_eligible_model");
    expectInvalid(await clone({ language: "not a tag" }), "/language");
  });

  it("passes the model's own model_options family through and refuses another", async () => {
    expect((await clone({ model_options: { vendorA: { need_noise_reduction: true } } })).status).toBe(202);
    const refused = await clone({ model: CLONE, model_options: { vendorG: { anything: 1 } } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.candidate_failures[0]).toMatchObject({
      code: "unsupported_model_options",
      param: "/model_options/vendorG",
      received: "vendorG",
      supported: ["vendorA"],
    });
    expectInvalid(await clone({ model_options: { vendorA: "loud" } }), "/model_options/vendorA");
  });

  it("refuses an unknown model with 400 unsupported_model", async () => {
    const response = await clone({ model: "vendorA-voice-clone-2" });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: "unsupported_model", param: "/model" });
  });
});

describe("voice records", () => {
  it("lists presets first, then the tenant's live cloned voices newest first, and nobody else's", async () => {
    const owner = await h.newTenant("1");
    const other = await h.newTenant("1");
    const older = await insertVoice(owner.tenantId, { displayName: "Older" });
    const pending = await insertVoice(owner.tenantId, { status: "pending" });
    await insertVoice(owner.tenantId, { status: "deleted" });
    await insertVoice(other.tenantId);
    const response = await h.request("GET", "/v1/voices", { apiKey: owner.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ object: "list", has_more: false, next_cursor: null });
    expect(response.body.data.map((v: { voice_id: string }) => v.voice_id)).toEqual([
      ...PRESET_VOICES.map((v) => v.voiceId),
      pending,
      older,
    ]);
    expect(response.body.data[0]).toEqual({
      voice_id: "en_female_aria",
      object: "voice",
      type: "preset",
      name: "Aria",
      language: "en",
      gender: "female",
      models: BOTH_SPEECH,
      status: "active",
      task_id: null,
      created_at: null,
    });
    const olderRecord = response.body.data.at(-1);
    expect(olderRecord).toMatchObject({
      voice_id: older,
      object: "voice",
      type: "cloned",
      name: "Older",
      language: "en",
      models: BOTH_SPEECH,
      status: "active",
    });
    expect(olderRecord.task_id).toMatch(/^task_/);
    expect(Date.parse(olderRecord.created_at)).not.toBeNaN();
  });

  it("pages through presets and cloned voices with limit and cursor", async () => {
    const tenant = await h.newTenant("1");
    const cloned = [await insertVoice(tenant.tenantId), await insertVoice(tenant.tenantId), await insertVoice(tenant.tenantId)];
    const expected = [...PRESET_VOICES.map((v) => v.voiceId), ...cloned.reverse()];
    for (const limit of [1, 3, 8, 11]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
        const page: ApiResponse = await h.request("GET", `/v1/voices${query}`, { apiKey: tenant.apiKey });
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(limit);
        expect(page.body.has_more).toBe(page.body.next_cursor !== null);
        seen.push(...page.body.data.map((v: { voice_id: string }) => v.voice_id));
        cursor = page.body.next_cursor;
        pages++;
      } while (cursor);
      expect(seen, `limit ${limit}`).toEqual(expected);
      expect(pages).toBe(Math.ceil(expected.length / limit));
    }
  });

  it("refuses a malformed cursor and bad query parameters", async () => {
    const bad = await h.request("GET", "/v1/voices?cursor=nonsense");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_cursor");
    const forged = Buffer.from(JSON.stringify({ v: 1, after: "task_123" })).toString("base64url");
    expect((await h.request("GET", `/v1/voices?cursor=${forged}`)).body.error.code).toBe("invalid_cursor");
    expect((await h.request("GET", "/v1/voices?limit=0")).status).toBe(422);
    expect((await h.request("GET", "/v1/voices?limit=101")).status).toBe(422);
    expect((await h.request("GET", "/v1/voices?type=preset")).status).toBe(422);
  });

  it("gets a preset or an own cloned voice; unknown and foreign ids are 404 voice_not_found", async () => {
    const owner = await h.newTenant("1");
    const other = await h.newTenant("1");
    const id = await insertVoice(owner.tenantId, { displayName: "Mine" });
    const preset = await h.request("GET", "/v1/voices/ja_female_hana", { apiKey: other.apiKey });
    expect(preset.status).toBe(200);
    expect(preset.body).toMatchObject({ voice_id: "ja_female_hana", type: "preset", models: ["vendorA-speech-2.8-hd"] });
    const own = await h.request("GET", `/v1/voices/${id}`, { apiKey: owner.apiKey });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ voice_id: id, type: "cloned", name: "Mine", status: "active" });
    for (const [voiceId, apiKey] of [
      [id, other.apiKey],
      ["voice_00000000000000000000000000", owner.apiKey],
      ["no_such_preset", owner.apiKey],
    ] as const) {
      const response = await h.request("GET", `/v1/voices/${voiceId}`, { apiKey });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("voice_not_found");
    }
  });

  it("deletes an own cloned voice once; afterwards it is gone everywhere", async () => {
    const owner = await h.newTenant("1");
    const other = await h.newTenant("1");
    const id = await insertVoice(owner.tenantId);
    const foreign = await h.request("DELETE", `/v1/voices/${id}`, { apiKey: other.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("voice_not_found");

    const deleted = await h.request("DELETE", `/v1/voices/${id}`, { apiKey: owner.apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ voice_id: id, object: "voice", deleted: true });
    expect((await h.request("GET", `/v1/voices/${id}`, { apiKey: owner.apiKey })).status).toBe(404);
    expect((await h.request("DELETE", `/v1/voices/${id}`, { apiKey: owner.apiKey })).status).toBe(404);
    const list = await h.request("GET", "/v1/voices?limit=100", { apiKey: owner.apiKey });
    expect(list.body.data.map((v: { voice_id: string }) => v.voice_id)).not.toContain(id);
    expect(await findVoiceForTenant(h.core.db, owner.tenantId, id)).toBeNull();
  });

  it("refuses to delete a preset with 409 conflict", async () => {
    const response = await h.request("DELETE", "/v1/voices/en_female_aria");
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe("conflict");
    expect((await h.request("GET", "/v1/voices/en_female_aria")).status).toBe(200);
  });

  it("needs the voices area", async () => {
    const musicOnly = await h.newTenant("1", ["music"]);
    expect((await h.request("GET", "/v1/voices", { apiKey: musicOnly.apiKey })).status).toBe(403);
    expect((await h.request("DELETE", "/v1/voices/en_female_aria", { apiKey: musicOnly.apiKey })).status).toBe(403);
  });
});

describe("findVoiceForTenant (speech's voice lookup)", () => {
  it("resolves presets and the tenant's active cloned voices only", async () => {
    const owner = await h.newTenant("1");
    const other = await h.newTenant("1");
    const active = await insertVoice(owner.tenantId);
    const pending = await insertVoice(owner.tenantId, { status: "pending" });
    expect(await findVoiceForTenant(h.core.db, owner.tenantId, "zh_male_narrator")).toEqual({
      voiceId: "zh_male_narrator",
      models: ["vendorA-speech-2.8-hd"],
    });
    expect(await findVoiceForTenant(h.core.db, owner.tenantId, active)).toEqual({ voiceId: active, models: BOTH_SPEECH });
    expect(await findVoiceForTenant(h.core.db, other.tenantId, active)).toBeNull();
    expect(await findVoiceForTenant(h.core.db, owner.tenantId, pending)).toBeNull();
    expect(await findVoiceForTenant(h.core.db, owner.tenantId, "voice_unknown")).toBeNull();
  });
});
