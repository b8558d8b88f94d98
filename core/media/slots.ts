import { z } from "zod";
import { MEDIA_FIELDS, REFERENCE_KINDS, type ReferenceKind } from "../contracts/media-input.js";

// Which fields of a body hold media inputs, found by the tag each media field's schema carries
// (core/contracts/media-input.ts, mediaInput): one source serves admission's checks, the storing of data URIs, the
// worker's resolution, the rewriting of inputs for vendors and the envelope.
export type MediaKind = ReferenceKind;

export interface MediaFacts {
  artifactId: string;
  kind: MediaKind;
  format: string;
  durationSeconds: number;
  width: number | null;
  height: number | null;
  hasAudio: boolean;
  // What the model input limits are checked against (core/selection/input-limits.ts); absent from facts resolved
  // before they were recorded.
  byteSize?: number;
  codec?: string | null;
  frameRate?: number | null;
  sampleRate?: number | null;
}

export interface Slot {
  path: (string | number)[];
  value: unknown;
  expected: MediaKind;
}

// Where in a body the media fields of a schema are: a media field, or an object's fields, or an array's items.
type MediaPlan = { media: MediaKind | "declared" } | { fields: Map<string, MediaPlan> } | { items: MediaPlan };

const plans = new WeakMap<z.core.$ZodType, MediaPlan | null>();

function planOf(schema: z.core.$ZodType): MediaPlan | null {
  const known = plans.get(schema);
  if (known !== undefined) return known;
  const plan = buildPlan(schema);
  plans.set(schema, plan);
  return plan;
}

function buildPlan(schema: z.core.$ZodType): MediaPlan | null {
  const tag = MEDIA_FIELDS.get(schema);
  if (tag) return { media: tag.mediaKind };
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return planOf(schema.unwrap());
  }
  if (schema instanceof z.ZodArray) {
    const items = planOf(schema.element);
    return items ? { items } : null;
  }
  if (schema instanceof z.ZodObject) {
    const fields = new Map<string, MediaPlan>();
    for (const [key, field] of Object.entries(schema.shape)) {
      const plan = planOf(field);
      if (plan) fields.set(key, plan);
    }
    return fields.size > 0 ? { fields } : null;
  }
  return null;
}

function isKind(value: unknown): value is MediaKind {
  return (REFERENCE_KINDS as readonly unknown[]).includes(value);
}

// The media inputs of a body (validated, or as stored with references in place of data URIs) by the plan of the
// schema that admitted it; a field whose kind is declared takes the `kind` of the object around it.
export function mediaSlots(schema: z.ZodType, input: Record<string, unknown>): Slot[] {
  const slots: Slot[] = [];
  const visit = (plan: MediaPlan, value: unknown, path: (string | number)[], declared: MediaKind | undefined) => {
    if (value === undefined || value === null) return;
    if ("media" in plan) {
      const expected = plan.media === "declared" ? declared : plan.media;
      if (expected) slots.push({ path, value, expected });
    } else if ("items" in plan) {
      if (Array.isArray(value)) value.forEach((item, i) => visit(plan.items, item, [...path, i], declared));
    } else if (typeof value === "object" && !Array.isArray(value)) {
      const record = value as Record<string, unknown>;
      const kind = isKind(record.kind) ? record.kind : undefined;
      for (const [key, field] of plan.fields) visit(field, record[key], [...path, key], kind);
    }
  };
  const plan = planOf(schema);
  if (plan) visit(plan, input, [], undefined);
  return slots;
}

const DATA_URI = /^data:([^,;]*)((?:;[^,;]+)*?)(;base64)?,(.*)$/s;

// The bytes of a data URI, or null when it is malformed. `maxBytes` refuses an oversized one before decoding.
export function decodeDataUri(text: string, maxBytes: number): { bytes: Buffer } | { tooLarge: true } | null {
  const match = DATA_URI.exec(text);
  if (!match) return null;
  const payload = match[4] ?? "";
  if (payload.length > Math.ceil(maxBytes / 3) * 4 + 4) return { tooLarge: true };
  let bytes: Buffer;
  try {
    bytes = match[3] ? Buffer.from(payload, "base64") : Buffer.from(decodeURIComponent(payload), "latin1");
  } catch {
    return null; // a percent-escape that is not UTF-8 (`%ZZ`, `%FF`): malformed, not a server error
  }
  return bytes.length > maxBytes ? { tooLarge: true } : { bytes };
}

// Where a URL or data URI sits: the field itself when given as a bare string, else its `url` member.
export function mediaTextPath(slot: Slot): (string | number)[] {
  return typeof slot.value === "string" ? slot.path : [...slot.path, "url"];
}

// The text of a URL or data-URI input, or null for an artifact reference.
export function mediaText(value: unknown): string | null {
  if (typeof value === "string") return value;
  const input = value as { type?: string; url?: string };
  return input.type === "url" ? (input.url ?? null) : null;
}

export function replaceAt(target: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let node = target as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
}

