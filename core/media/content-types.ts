// The media type of a file by the format its vendor names it with, for bytes whose first bytes carry no signature
// to sniff (raw PCM) or that are labelled before anyone sniffs them (a data URI an adapter builds). One table, so
// an artifact and the speech an adapter assembles call the same format by the same type.
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  mp3: "audio/mpeg",
  wav: "audio/wav",
  flac: "audio/flac",
  opus: "audio/ogg",
  pcm: "audio/L16",
  png: "image/png",
  jpeg: "image/jpeg",
  jpg: "image/jpeg",
  webp: "image/webp",
  mp4: "video/mp4",
  mov: "video/quicktime",
};

export function contentTypeOfFormat(format: string): string {
  return CONTENT_TYPES[format] ?? "application/octet-stream";
}
