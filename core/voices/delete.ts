import { findPresetVoice } from "../catalog/voices.js";
import { ServiceError } from "../errors/index.js";
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { voiceNotFound } from "./get.js";
import { markClonedVoiceDeleted } from "./repository.js";

// DELETE /v1/voices/{voice_id}: a cloned voice stops resolving at once; presets belong to every tenant and stay.
export async function deleteVoice(core: { db: Db; clock: Clock }, tenantId: string, voiceId: string) {
  if (findPresetVoice(voiceId)) {
    throw new ServiceError("conflict", `Voice ${voiceId} is a preset voice; only cloned voices can be deleted.`, {
      details: { voice_id: voiceId, type: "preset" },
    });
  }
  if (!(await markClonedVoiceDeleted(core.db, tenantId, voiceId, core.clock()))) throw voiceNotFound(voiceId);
  return { voice_id: voiceId, object: "voice" as const, deleted: true as const };
}
