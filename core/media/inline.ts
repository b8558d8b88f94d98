import type { z } from "zod";
import { createHash } from "node:crypto";
import { jsonPointer } from "../errors/index.js";
import { decodeDataUri, mediaSlots, mediaText, replaceAt, type MediaFacts } from "./slots.js";

// Inline media (a data URI) is never echoed: a task's input keeps a reference in its place (what the caller
// claimed, the size and digest of the bytes), and the bytes wait in task_inline_media until the worker has stored
// them as an artifact. Every read, list page and callback then has a size that does not depend on the media.
export interface InlineReference {
  type: "data_uri";
  content_type: string | null;
  byte_size: number;
  sha256: string;
}

export interface InlineMedia {
  pointer: string;
  dataUri: string;
}

const DECLARED_TYPE = /^data:([^,;]*)/;

// The data URI's declared media type, lowercased, or null when it declares none (RFC 2397's default is text).
export function declaredType(dataUri: string): string | null {
  const declared = DECLARED_TYPE.exec(dataUri)?.[1]?.trim().toLowerCase();
  return declared ? declared : null;
}

function dataUriOf(value: unknown): string | null {
  const text = mediaText(value);
  return text?.startsWith("data:") ? text : null;
}

export function isInlineReference(value: unknown): value is InlineReference {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "data_uri";
}

function referenceOf(dataUri: string): InlineReference {
  const decoded = decodeDataUri(dataUri, Number.MAX_SAFE_INTEGER);
  const bytes = decoded && "bytes" in decoded ? decoded.bytes : Buffer.alloc(0);
  return {
    type: "data_uri",
    content_type: declaredType(dataUri),
    byte_size: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
  };
}

// The input as stored: every data URI replaced by its reference, and the data URIs to keep beside the task.
export function splitInlineMedia(schema: z.ZodType, input: Record<string, unknown>): { input: Record<string, unknown>; inline: InlineMedia[] } {
  const slots = mediaSlots(schema, input).filter((slot) => dataUriOf(slot.value) !== null);
  if (slots.length === 0) return { input, inline: [] };
  const stored = structuredClone(input);
  const inline = slots.map((slot) => {
    const dataUri = dataUriOf(slot.value) as string;
    replaceAt(stored, slot.path, referenceOf(dataUri));
    return { pointer: jsonPointer(slot.path), dataUri };
  });
  return { input: stored, inline };
}

// The input as the envelope shows it: references (computed for an input admitted before references were stored),
// each with the artifact the worker stored its bytes as, once it has.
export function renderMediaInputs(
  schema: z.ZodType,
  input: Record<string, unknown>,
  resolved: Record<string, MediaFacts> | null,
): Record<string, unknown> {
  const slots = mediaSlots(schema, input).filter((slot) => isInlineReference(slot.value) || dataUriOf(slot.value) !== null);
  if (slots.length === 0) return input;
  const rendered = structuredClone(input);
  for (const slot of slots) {
    const dataUri = dataUriOf(slot.value);
    const reference = dataUri === null ? (slot.value as InlineReference) : referenceOf(dataUri);
    const artifactId = resolved?.[jsonPointer(slot.path)]?.artifactId ?? null;
    replaceAt(rendered, slot.path, {
      type: reference.type,
      content_type: reference.content_type,
      byte_size: reference.byte_size,
      sha256: reference.sha256,
      artifact_id: artifactId,
    });
  }
  return rendered;
}
