// The media type of a stored output by the format its vendor names it with, for bytes whose first bytes carry no
// signature to sniff (raw PCM).
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
