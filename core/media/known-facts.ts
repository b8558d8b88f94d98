import type { InputFacts, KnownInput } from "../selection/input-limits.js";
import { jsonPointer } from "../errors/index.js";
import type { MediaProbe } from "./probe.js";
import type { MediaFacts, Slot } from "./slots.js";

// The facts of a media input in the one shape the input-limit checks read (core/selection/input-limits.ts),
// from whichever record holds them: a probe at admission, an artifact's stored media, or the worker's resolution.

// A `media` of `references[]`: the model's reference limits apply to it.
export function isReferenceSlot(slot: Pick<Slot, "path">): boolean {
  return slot.path.length === 3 && slot.path[0] === "references" && slot.path[2] === "media";
}

export function knownInput(slot: Slot, facts: InputFacts): KnownInput {
  return { param: jsonPointer(slot.path), kind: slot.expected, reference: isReferenceSlot(slot), facts };
}

// A still image has no duration (the probe says 0); it is not a clip, so no duration bound applies to it.
function clipSeconds(seconds: number): number | null {
  return seconds > 0 ? seconds : null;
}

export function factsOfProbe(format: string, byteSize: number, probe: MediaProbe): InputFacts {
  return {
    format,
    byteSize,
    width: probe.width,
    height: probe.height,
    durationSeconds: clipSeconds(probe.durationSeconds),
    codec: probe.codec,
    frameRate: probe.frameRate,
    sampleRate: probe.sampleRate,
  };
}

export function factsOfResolved(facts: MediaFacts): InputFacts {
  return {
    format: facts.format,
    byteSize: facts.byteSize ?? null,
    width: facts.width,
    height: facts.height,
    durationSeconds: facts.kind === "image" ? null : clipSeconds(facts.durationSeconds),
    codec: facts.codec ?? null,
    frameRate: facts.frameRate ?? null,
    sampleRate: facts.sampleRate ?? null,
  };
}

// An artifact row's `media` as stored by an upload, a resolution or a task's output; null when it holds no probe.
export function factsOfStoredMedia(media: unknown, byteSize: number): InputFacts | null {
  if (media === null || typeof media !== "object") return null;
  const stored = media as Partial<MediaProbe> & { format?: string };
  if (typeof stored.format !== "string" || typeof stored.durationSeconds !== "number") return null;
  return {
    format: stored.format,
    byteSize,
    width: stored.width ?? null,
    height: stored.height ?? null,
    durationSeconds: clipSeconds(stored.durationSeconds),
    codec: stored.codec ?? null,
    frameRate: stored.frameRate ?? null,
    sampleRate: stored.sampleRate ?? null,
  };
}
