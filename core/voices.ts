import { PRESET_VOICES } from "./catalog/voices.js";

// GET /v1/voices: the preset voices every tenant may use.
export function listVoices() {
  return {
    object: "list" as const,
    data: PRESET_VOICES.map((v) => ({
      object: "voice" as const,
      voice_id: v.voiceId,
      type: "preset",
      name: v.name,
      language: v.language,
      gender: v.gender,
      models: v.models,
    })),
    has_more: false,
    next_cursor: null,
  };
}
