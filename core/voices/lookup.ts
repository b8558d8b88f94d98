import { and, eq } from "drizzle-orm";
import { findPresetVoice } from "../catalog/voices.js";
import type { Executor } from "../db/client.js";
import { voices } from "../db/schema/index.js";

export interface ResolvedVoice {
  voiceId: string;
  models: readonly string[];
}

// The voices a tenant may speak with: every preset, and its own cloned voices once active. A pending, deleted
// or foreign voice is not found, so speech answers voice_not_found for all of them alike.
export async function findVoiceForTenant(db: Executor, tenantId: string, voiceId: string): Promise<ResolvedVoice | null> {
  const preset = findPresetVoice(voiceId);
  if (preset) return { voiceId: preset.voiceId, models: preset.models };
  const rows = await db
    .select({ id: voices.id, models: voices.models })
    .from(voices)
    .where(and(eq(voices.id, voiceId), eq(voices.tenantId, tenantId), eq(voices.status, "active")))
    .limit(1);
  const row = rows[0];
  return row ? { voiceId: row.id, models: row.models } : null;
}
