import { findPresetVoice } from "../catalog/voices.js";
import { ServiceError } from "../errors/index.js";
import type { Db } from "../db/client.js";
import { clonedVoiceRecord, presetVoiceRecord, type VoiceRecord } from "./record.js";
import { findClonedVoice } from "./repository.js";

export function voiceNotFound(voiceId: string): ServiceError {
  return new ServiceError("voice_not_found", `No voice ${voiceId}.`, { details: { voice_id: voiceId } });
}

// GET /v1/voices/{voice_id}: unknown, foreign and deleted voices answer the same 404.
export async function getVoice(core: { db: Db }, tenantId: string, voiceId: string): Promise<VoiceRecord> {
  const preset = findPresetVoice(voiceId);
  if (preset) return presetVoiceRecord(preset);
  const row = await findClonedVoice(core.db, tenantId, voiceId);
  if (!row) throw voiceNotFound(voiceId);
  return clonedVoiceRecord(row);
}
