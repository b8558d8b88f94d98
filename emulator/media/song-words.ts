// The words of a song when the caller gives none: the emulated music vendors write lyrics and titles from the
// style prompt, as their real counterparts do, so that what is sung visibly comes from the request.

const LYRIC_WORDS_PER_LINE = 6;
const TITLE_WORDS = 4;

function wordsOf(text: string): string[] {
  return text.split(/[^\p{L}\p{N}'-]+/u).filter((word) => word.length > 0);
}

// Four lines: the style sung back in two halves, each answered by a refrain.
export function writeLyrics(style: string): string {
  const words = wordsOf(style);
  const first = words.slice(0, LYRIC_WORDS_PER_LINE).join(" ") || "Music";
  const second = words.slice(LYRIC_WORDS_PER_LINE, 2 * LYRIC_WORDS_PER_LINE).join(" ") || first;
  return [first, "Oh, sing it with me", second, "Na na na, all night long"].join("\n");
}

export function writeTitle(style: string): string {
  const words = wordsOf(style).slice(0, TITLE_WORDS);
  if (words.length === 0) return "Untitled";
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(" ");
}
