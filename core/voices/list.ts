import { PRESET_VOICES } from "../catalog/voices.js";
import { decodeCursor, pageOf, pageQuerySchema, parseListQuery, type ListParameters } from "../contracts/pagination.js";
import type { Db } from "../db/client.js";
import { clonedVoiceRecord, presetVoiceRecord, type VoiceRecord } from "./record.js";
import { listClonedVoices } from "./repository.js";

const CLONED_VOICE_ID = /^voice_[0-9a-z]{26}$/;

// The cursor names the last voice of the previous page, {v: 1, after: voice_id}: a preset (continue after it in
// catalog order, then the cloned voices) or a cloned voice (continue with older cloned voices).
type Position = { section: "presets"; index: number } | { section: "cloned"; beforeId: string };

function voicePosition(value: Record<string, unknown>): Position | undefined {
  if (value.v !== 1 || typeof value.after !== "string") return undefined;
  const after = value.after;
  const presetIndex = PRESET_VOICES.findIndex((v) => v.voiceId === after);
  if (presetIndex >= 0) return { section: "presets", index: presetIndex + 1 };
  if (CLONED_VOICE_ID.test(after)) return { section: "cloned", beforeId: after };
  return undefined;
}

export const voiceListQuerySchema = pageQuerySchema.strict();

// GET /v1/voices: the presets in catalog order, then the tenant's cloned voices (pending or active), newest first.
export async function listVoicesPage(core: { db: Db }, tenantId: string, query: Record<string, unknown>, from: ListParameters = "query") {
  const { limit, cursor } = parseListQuery(voiceListQuerySchema, query);
  const position: Position = cursor !== undefined ? decodeCursor(cursor, voicePosition, from) : { section: "presets", index: 0 };

  // One record more than the page holds tells whether another page follows.
  const records: VoiceRecord[] =
    position.section === "presets" ? PRESET_VOICES.slice(position.index, position.index + limit + 1).map(presetVoiceRecord) : [];
  if (records.length <= limit) {
    const rows = await listClonedVoices(core.db, {
      tenantId,
      beforeId: position.section === "cloned" ? position.beforeId : undefined,
      limit: limit + 1 - records.length,
    });
    records.push(...rows.map(clonedVoiceRecord));
  }
  return pageOf(records, limit, (last) => ({ v: 1, after: last.voice_id }), (record) => record);
}
