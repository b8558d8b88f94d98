// What the bytes say they are, from their first bytes, whatever the caller or a server claimed.
export interface SniffedType {
  kind: "image" | "video" | "audio";
  format: string;
  contentType: string;
}

function ascii(bytes: Buffer, start: number, length: number): string {
  return bytes.subarray(start, start + length).toString("latin1");
}

export function sniffMediaType(bytes: Buffer): SniffedType | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0x89 && ascii(bytes, 1, 3) === "PNG") return { kind: "image", format: "png", contentType: "image/png" };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { kind: "image", format: "jpeg", contentType: "image/jpeg" };
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return { kind: "image", format: "webp", contentType: "image/webp" };
  if (ascii(bytes, 0, 4) === "GIF8") return { kind: "image", format: "gif", contentType: "image/gif" };
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WAVE") return { kind: "audio", format: "wav", contentType: "audio/wav" };
  if (ascii(bytes, 0, 4) === "fLaC") return { kind: "audio", format: "flac", contentType: "audio/flac" };
  if (ascii(bytes, 0, 4) === "OggS") return { kind: "audio", format: "ogg", contentType: "audio/ogg" };
  if (ascii(bytes, 0, 3) === "ID3" || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) {
    return { kind: "audio", format: "mp3", contentType: "audio/mpeg" };
  }
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    return { kind: "video", format: "webm", contentType: "video/webm" };
  }
  if (ascii(bytes, 4, 4) === "ftyp") {
    const brand = ascii(bytes, 8, 4);
    if (brand.startsWith("M4A")) return { kind: "audio", format: "m4a", contentType: "audio/mp4" };
    if (brand === "qt  ") return { kind: "video", format: "mov", contentType: "video/quicktime" };
    return { kind: "video", format: "mp4", contentType: "video/mp4" };
  }
  return null;
}
