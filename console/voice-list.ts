import { api, operationRoute } from "./api";
import type { Voice, VoiceList } from "./types";

// Every voice the key can speak with (GET /v1/voices, page after page): the presets, then the cloned ones.
export async function loadVoices(): Promise<Voice[]> {
  const voices: Voice[] = [];
  let cursor: string | null = null;
  do {
    const page: VoiceList = await api<VoiceList>(operationRoute("listVoices"), { query: { limit: 100, cursor: cursor ?? undefined } });
    voices.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return voices;
}
