import { z } from "zod";
import { PRESET_VOICES } from "../catalog/voices.js";
import { invalidCursor, invalidQuery } from "../contracts/query-errors.js";
import type { Core } from "../runtime.js";
import { clonedVoiceRecord, presetVoiceRecord, type VoiceRecord } from "./record.js";
import { listClonedVoices } from "./repository.js";

const listQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().optional(),
  })
  .strict();

const CLONED_VOICE_ID = /^voice_[0-9a-z]{26}$/;

// The cursor names the last voice of the previous page: a preset (continue after it in catalog order, then the
// cloned voices) or a cloned voice (continue with older cloned voices).
type Position = { section: "presets"; index: number } | { section: "cloned"; beforeId: string };

function encodeCursor(lastVoiceId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, after: lastVoiceId })).toString("base64url");
}

function decodeCursor(cursor: string): Position {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { v?: number; after?: unknown };
    if (value.v === 1 && typeof value.after === "string") {
      const after = value.after;
      const presetIndex = PRESET_VOICES.findIndex((v) => v.voiceId === after);
      if (presetIndex >= 0) return { section: "presets", index: presetIndex + 1 };
      if (CLONED_VOICE_ID.test(after)) return { section: "cloned", beforeId: after };
    }
  } catch {
    // falls through to the refusal below
  }
  throw invalidCursor();
}

// GET /v1/voices: the presets in catalog order, then the tenant's cloned voices (pending or active), newest first.
export async function listVoicesPage(core: Core, tenantId: string, query: Record<string, unknown>) {
  const parsed = listQuerySchema.safeParse(query);
  if (!parsed.success) throw invalidQuery(parsed.error);
  const { limit, cursor } = parsed.data;
  const position: Position = cursor !== undefined ? decodeCursor(cursor) : { section: "presets", index: 0 };

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
  const page = records.slice(0, limit);
  const hasMore = records.length > limit;
  return {
    object: "list" as const,
    data: page,
    has_more: hasMore,
    next_cursor: hasMore && page.length > 0 ? encodeCursor(page[page.length - 1]!.voice_id) : null,
  };
}
