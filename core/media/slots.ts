// Which body fields hold media inputs, found in a validated request body. One table serves admission's checks,
// the worker's resolution and the rewriting of inputs for vendors.
export type MediaKind = "image" | "video" | "audio";

export interface MediaFacts {
  artifactId: string;
  kind: MediaKind;
  format: string;
  durationSeconds: number;
  width: number | null;
  height: number | null;
  hasAudio: boolean;
}

// Which body fields hold media, and of what kind. `references[].media` takes the kind its item declares.
const MEDIA_FIELDS: Readonly<Record<string, MediaKind>> = {
  images: "image",
  image: "image",
  first_frame: "image",
  last_frame: "image",
  audio: "audio",
  driving_audio: "audio",
  reference_audio: "audio",
  sample: "audio",
  reference_voice: "audio",
  source_video: "video",
  video: "video",
};

export interface Slot {
  path: (string | number)[];
  value: unknown;
  expected: MediaKind;
}

export function mediaSlots(input: Record<string, unknown>): Slot[] {
  const slots: Slot[] = [];
  const add = (path: (string | number)[], value: unknown, expected: MediaKind) => {
    if (Array.isArray(value)) value.forEach((item, i) => slots.push({ path: [...path, i], value: item, expected }));
    else if (value !== undefined && value !== null) slots.push({ path, value, expected });
  };
  for (const [key, value] of Object.entries(input)) {
    const kind = MEDIA_FIELDS[key];
    if (kind) add([key], value, kind);
  }
  const references = input.references;
  if (Array.isArray(references)) {
    references.forEach((reference: { kind?: MediaKind; media?: unknown; reference_voice?: unknown }, i) => {
      if (reference.kind) add(["references", i, "media"], reference.media, reference.kind);
      add(["references", i, "reference_voice"], reference.reference_voice, "audio");
    });
  }
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

