import type { ByteRange } from "./store.js";

// How an artifact is answered over HTTP, whatever store holds it: the type sniffed from its bytes when it was
// stored, never executed by a browser (nosniff, a sandboxing CSP, attachment for anything but media), seekable
// (single byte ranges, 206 and 416) and cacheable by validators (ETag is the sha256, Last-Modified its creation).
export interface ArtifactFacts {
  artifactId: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  createdAt: Date;
}

export interface ConditionalHeaders {
  range?: string;
  ifRange?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

export interface ArtifactAnswer {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  // The bytes to send: the whole artifact, one range of it, or nothing (HEAD, 304, 416).
  body: { range?: ByteRange } | null;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/flac": "flac",
  "audio/ogg": "ogg",
  "audio/mp4": "m4a",
  "audio/L16": "pcm",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "video/webm": "webm",
};

export function isMediaType(contentType: string): boolean {
  return /^(image|audio|video)\//.test(contentType);
}

function baseHeaders(artifact: ArtifactFacts): Record<string, string> {
  const disposition = isMediaType(artifact.contentType) ? "inline" : "attachment";
  const filename = `${artifact.artifactId}.${EXTENSIONS[artifact.contentType] ?? "bin"}`;
  return {
    "content-type": artifact.contentType,
    "content-disposition": `${disposition}; filename="${filename}"`,
    "x-content-type-options": "nosniff",
    "content-security-policy": "sandbox",
    "accept-ranges": "bytes",
    etag: `"${artifact.sha256}"`,
    "last-modified": artifact.createdAt.toUTCString(),
    "cache-control": "private, max-age=3600",
  };
}

// RFC 9110 §13.1.2: a weak comparison, so W/"x" matches "x"; `*` matches any current representation.
function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

// HTTP dates have whole seconds; the artifact's time is compared at that precision.
function notModifiedSince(header: string, createdAt: Date): boolean {
  const since = Date.parse(header);
  return Number.isFinite(since) && Math.floor(createdAt.getTime() / 1000) * 1000 <= since;
}

// One range of `bytes=first-last`, `bytes=first-` or `bytes=-suffix`: the range, "unsatisfiable", or null when the
// header is not one we serve (malformed, another unit, several ranges), which RFC 9110 lets a server ignore.
export function parseRange(header: string, size: number): ByteRange | "unsatisfiable" | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  // Both groups always take part in a match, possibly empty.
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

export function answerArtifact(artifact: ArtifactFacts, request: ConditionalHeaders): ArtifactAnswer {
  const headers = baseHeaders(artifact);
  const etag = headers.etag as string;
  const notModified = request.ifNoneMatch !== undefined
    ? noneMatch(request.ifNoneMatch, etag)
    : request.ifModifiedSince !== undefined && notModifiedSince(request.ifModifiedSince, artifact.createdAt);
  if (notModified) {
    const { "content-type": _type, "content-disposition": _disposition, ...kept } = headers;
    return { status: 304, headers: kept, body: null };
  }
  // If-Range: the range holds only for the representation the client has part of.
  const rangeApplies = request.range !== undefined && (request.ifRange === undefined || request.ifRange.trim() === etag);
  const range = rangeApplies ? parseRange(request.range as string, artifact.byteSize) : null;
  if (range === "unsatisfiable") {
    return { status: 416, headers: { ...headers, "content-range": `bytes */${artifact.byteSize}`, "content-length": "0" }, body: null };
  }
  if (range) {
    return {
      status: 206,
      headers: {
        ...headers,
        "content-range": `bytes ${range.start}-${range.end}/${artifact.byteSize}`,
        "content-length": String(range.end - range.start + 1),
      },
      body: { range },
    };
  }
  return { status: 200, headers: { ...headers, "content-length": String(artifact.byteSize) }, body: {} };
}
