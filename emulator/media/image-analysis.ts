import { decodeRgb, type InputPicture } from "./input-pictures.js";
import { dominantColours, type DominantColour } from "./named-colours.js";

// The emulator's vision model: what it says about images is measured from the pixels it decoded (size, format,
// the colours covering most of each picture), never canned, so a test can tell that the images were really read.
// Tokens are counted the way vision APIs bill images: a flat cost per image at low detail, plus a cost per
// 512-pixel tile otherwise; text at four characters a token.

export type Detail = "default" | "low" | "high";


export interface PictureFacts {
  width: number;
  height: number;
  format: string;
  dominantColours: DominantColour[];
}

// Colours are counted on a copy at most this many pixels across: enough for shares to the percent.
const ANALYSIS_EDGE = 256;
const FORMAT_NAMES: Readonly<Record<string, string>> = { png: "PNG", mjpeg: "JPEG", webp: "WebP", gif: "GIF" };

const BASE_IMAGE_TOKENS = 85;
const TILE_TOKENS = 170;
const TILE_EDGE = 512;
const DEFAULT_DETAIL_MAX_TILES = 4;
const CHARACTERS_PER_TOKEN = 4;

export async function describePicture(picture: InputPicture): Promise<PictureFacts> {
  const scale = Math.min(1, ANALYSIS_EDGE / Math.max(picture.width, picture.height));
  const width = Math.max(1, Math.round(picture.width * scale));
  const height = Math.max(1, Math.round(picture.height * scale));
  // Nearest-neighbour sampling keeps the picture's own colours; averaging would invent blends at every edge.
  const rgb = await decodeRgb(picture, width, height, "neighbor");
  const colours = dominantColours(rgb);
  return { width: picture.width, height: picture.height, format: FORMAT_NAMES[picture.codec] ?? picture.codec, dominantColours: colours };
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

// The reply: the prompt echoed, then what was seen in each image, as prose or (response_format json) as JSON.
export function answerAbout(prompt: string, pictures: readonly PictureFacts[], format: "text" | "json"): string {
  if (format === "json") {
    return JSON.stringify({
      prompt,
      image_count: pictures.length,
      images: pictures.map((picture, index) => ({
        index: index + 1,
        width: picture.width,
        height: picture.height,
        format: picture.format,
        dominant_colors: picture.dominantColours.map((colour) => ({ ...colour, share: Math.round(colour.share * 100) / 100 })),
      })),
    });
  }
  const lines = pictures.map((picture, index) => {
    const colours = picture.dominantColours.map((colour) => `${colour.name} (${percent(colour.share)}, ${colour.hex})`).join(", ");
    return `Image ${index + 1}: ${picture.width}×${picture.height} ${picture.format}, mostly ${colours}.`;
  });
  const count = pictures.length === 1 ? "1 image" : `${pictures.length} images`;
  return [`You asked: "${prompt}"`, `I looked at ${count}.`, ...lines].join("\n");
}

export function imageTokens(picture: PictureFacts, detail: Detail): number {
  if (detail === "low") return BASE_IMAGE_TOKENS;
  const tiles = Math.ceil(picture.width / TILE_EDGE) * Math.ceil(picture.height / TILE_EDGE);
  return BASE_IMAGE_TOKENS + TILE_TOKENS * (detail === "high" ? tiles : Math.min(tiles, DEFAULT_DETAIL_MAX_TILES));
}

export function textTokens(text: string): number {
  return Math.ceil([...text].length / CHARACTERS_PER_TOKEN);
}
