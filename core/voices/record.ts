import type { PresetVoice } from "../catalog/voices.js";
import type { ClonedVoiceRow } from "./repository.js";

// One voice as the API shows it; presets and cloned voices share the shape so a client lists them together.
export interface VoiceRecord {
  voice_id: string;
  object: "voice";
  type: "preset" | "cloned";
  // A preset's name, or the display_name a clone was created with.
  name: string;
  language: string | null;
  gender: string | null;
  models: readonly string[];
  status: string;
  task_id: string | null;
  created_at: string | null;
}

export function presetVoiceRecord(voice: PresetVoice): VoiceRecord {
  return {
    voice_id: voice.voiceId,
    object: "voice",
    type: "preset",
    name: voice.name,
    language: voice.language,
    gender: voice.gender,
    models: voice.models,
    status: "active",
    task_id: null,
    created_at: null,
  };
}

export function clonedVoiceRecord(row: ClonedVoiceRow): VoiceRecord {
  return {
    voice_id: row.id,
    object: "voice",
    type: "cloned",
    name: row.displayName,
    language: row.language,
    gender: null,
    models: row.models,
    status: row.status,
    task_id: row.taskId,
    created_at: row.createdAt.toISOString(),
  };
}
