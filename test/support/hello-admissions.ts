import { NO_RETIREMENTS } from "../../core/retirements/retirement.js";
import { findCapability } from "../../core/capabilities/table.js";
import type { IdGenerator } from "../../core/ids.js";
import type { Admission } from "../../core/tasks/admission-batch.js";
import { admittedTaskRow } from "../../core/tasks/admitted-rows.js";
import { parseCreateInput } from "../../core/tasks/create.js";

// Admissions of "hello" in speech (500 micro-credits on hd) for one tenant, as createTask would build them, to hand
// to an admission batch directly: `admission(key)` is a new task under `key`, whose request is told apart by
// `fingerprint` (the key itself unless given).
export async function helloAdmissions(ids: IdGenerator, tenantId: string) {
  const capability = findCapability("text_to_speech")!;
  const input = parseCreateInput(capability, { voice: "en_female_aria", input: "hello" });
  const prepared = await capability.prepare(input, {
    tenantId,
    isFamilyLive: () => true,
    lifecycle: { schedule: NO_RETIREMENTS, now: new Date() },
    findVoice: async () => ({ voiceId: "en_female_aria", models: capability.modelIds }),
    known: { body: input, media: [] },
  });
  const hold = prepared.quote.totalMicro;
  const admission = (key: string, fingerprint = key): Admission => {
    const now = new Date();
    const row = admittedTaskRow({ id: ids.task(), tenantId, capability, input, prepared, idempotencyKey: key, surface: "rest", requestId: `req_${key}`, apiKeyId: null, now });
    return { claim: { tenantId, key, fingerprint, now }, row, hold };
  };
  return { admission, hold };
}
