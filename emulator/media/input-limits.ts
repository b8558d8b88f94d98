// The bounds an emulated vendor holds its downloaded inputs to, in its own terms (emulator/vendors/input-limits.ts
// lists them per vendor model, from what each vendor publishes). Nothing here comes from the service's catalog:
// a catalog that admits what a vendor refuses is refused here, as it would be there, and a test compares the two.

export interface PictureBounds {
  formats?: readonly string[];
  minSide?: number;
  maxSide?: number;
  minAspect?: number;
  maxAspect?: number;
  maxBytes?: number;
}

export interface ClipBounds {
  formats?: readonly string[];
  codecs?: readonly string[];
  minSeconds?: number;
  maxSeconds?: number;
  minSide?: number;
  maxSide?: number;
  minFps?: number;
  maxFps?: number;
  maxBytes?: number;
}

export interface VendorInputBounds {
  image?: PictureBounds;
  video?: ClipBounds;
  audio?: ClipBounds;
  referenceImage?: PictureBounds;
  referenceVideo?: ClipBounds;
  referenceAudio?: ClipBounds;
  togetherSeconds?: { video?: number; audio?: number };
  // The most characters of a text the vendor takes, by the name of the request field it comes from.
  textCharacters?: Readonly<Record<string, number>>;
}

// One downloaded input as the emulator decoded it; null where decoding could not tell.
export interface DownloadedFacts {
  kind: "image" | "video" | "audio";
  format: string;
  byteSize: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  codec: string | null;
  frameRate: number | null;
}

function beyond(value: number, min: number | undefined, max: number | undefined): boolean {
  return (min !== undefined && value < min) || (max !== undefined && value > max);
}

function pictureProblem(bounds: PictureBounds | ClipBounds, media: DownloadedFacts, what: string): string | null {
  if (bounds.formats && !bounds.formats.includes(media.format)) return `${what} must be ${bounds.formats.join(", ")}, not ${media.format}`;
  if (bounds.maxBytes !== undefined && media.byteSize > bounds.maxBytes) return `${what} must be at most ${bounds.maxBytes} bytes`;
  if (media.width === null || media.height === null) return null;
  const short = Math.min(media.width, media.height);
  const long = Math.max(media.width, media.height);
  if ((bounds.minSide !== undefined && short < bounds.minSide) || (bounds.maxSide !== undefined && long > bounds.maxSide)) {
    return `${what} sides must be ${bounds.minSide ?? 1} to ${bounds.maxSide ?? "any"} px`;
  }
  if ("minAspect" in bounds || "maxAspect" in bounds) {
    const picture = bounds as PictureBounds;
    if (beyond(media.width / media.height, picture.minAspect, picture.maxAspect)) return `${what} aspect ratio must be ${picture.minAspect} to ${picture.maxAspect}`;
  }
  return null;
}

function clipProblem(bounds: ClipBounds, media: DownloadedFacts, what: string): string | null {
  const picture = pictureProblem(bounds, media, what);
  if (picture !== null) return picture;
  if (bounds.codecs && media.codec !== null && !bounds.codecs.includes(media.codec)) return `${what} must be encoded as ${bounds.codecs.join(" or ")}`;
  if (media.durationSeconds !== null && beyond(media.durationSeconds, bounds.minSeconds, bounds.maxSeconds)) {
    return `${what} must last ${bounds.minSeconds ?? 0} to ${bounds.maxSeconds ?? "any"} s`;
  }
  if (media.frameRate !== null && beyond(media.frameRate, bounds.minFps, bounds.maxFps)) return `${what} frame rate must be ${bounds.minFps ?? 0} to ${bounds.maxFps ?? "any"} fps`;
  return null;
}

// Why the vendor refuses one input, or null; a reference takes the model's reference bounds where it has them.
export function downloadedInputProblem(bounds: VendorInputBounds, media: DownloadedFacts, reference: boolean): string | null {
  const what = reference ? `reference ${media.kind}` : media.kind;
  if (media.kind === "image") {
    const own = (reference ? bounds.referenceImage : undefined) ?? bounds.image;
    return own ? pictureProblem(own, media, what) : null;
  }
  const own = media.kind === "video" ? ((reference ? bounds.referenceVideo : undefined) ?? bounds.video) : ((reference ? bounds.referenceAudio : undefined) ?? bounds.audio);
  return own ? clipProblem(own, media, what) : null;
}

// The first input of a request the vendor refuses, the references of one kind together included.
export function downloadedInputsProblem(bounds: VendorInputBounds, inputs: readonly { media: DownloadedFacts; reference: boolean }[]): string | null {
  for (const input of inputs) {
    const problem = downloadedInputProblem(bounds, input.media, input.reference);
    if (problem !== null) return problem;
  }
  for (const kind of ["video", "audio"] as const) {
    const max = bounds.togetherSeconds?.[kind];
    const total = inputs.filter((i) => i.media.kind === kind).reduce((sum, i) => sum + (i.media.durationSeconds ?? 0), 0);
    if (max !== undefined && total > max) return `the ${kind} inputs must last at most ${max} s together`;
  }
  return null;
}

// Why the vendor refuses a text of the request, or null; `texts` names each by the request field it comes from.
export function textProblem(bounds: VendorInputBounds, texts: Readonly<Record<string, string | undefined>>): string | null {
  for (const [field, max] of Object.entries(bounds.textCharacters ?? {})) {
    const text = texts[field];
    if (text !== undefined && [...text].length > max) return `${field} exceeds ${max} characters`;
  }
  return null;
}
