import { createHash } from "node:crypto";
import { encodePcmToFile, type AudioFormat, type PcmAudio } from "../audio-encoding.js";
import { speakWithEspeak } from "../espeak.js";
import type { RecordingTraits } from "./audio-analysis.js";
import { espeakVoiceName, type Timbre } from "./voice-timbre.js";

// A song the way the emulated music vendors make one: a backing track (chords plucked on every beat over a bass
// note and a kick drum, bar by bar through I–V–vi–IV) and, unless it is instrumental, the lyrics sung over it
// one line per bar by espeak-ng, each line pitched to its bar's chord. The backing track stays below 1 kHz, so
// whether a song has vocals can be heard (and measured) in the band above it. The style prompt picks key and
// tempo; a reference recording, when there is one, sets the tempo, key, length and loudness instead.

export interface SongRequest {
  style: string;
  // The words to sing, one line per bar; null for an instrumental.
  lyrics: string | null;
  // Lyrics are sung in English by this voice.
  singer: Timbre;
  reference: RecordingTraits | null;
}

// A song composed and sung once; each take of it is mixed and encoded on its own.
export interface Song {
  bpm: number;
  rootHz: number;
  durationSeconds: number;
  loudnessDb: number;
  lines: SungLine[];
}

interface SungLine {
  pcm: PcmAudio;
  startSeconds: number;
}

export interface TakeEncoding {
  format: AudioFormat;
  sampleRate: number;
  bitrate?: number;
  // An audible mark at the start: a short 1.5 kHz tone.
  watermark: boolean;
}

// espeak-ng speaks at this rate, so the whole song is made at it and resampled when encoded.
const RATE = 22050;
const BEATS_PER_BAR = 4;
// Chords of the progression, in semitones above the key's root, with their thirds (major 4, minor 3).
const PROGRESSION = [
  { root: 0, third: 4 },
  { root: 7, third: 4 },
  { root: 9, third: 3 },
  { root: 5, third: 4 },
];
// The pitch espeak-ng sings each chord's line at (its 0–99 scale).
const LINE_PITCHES = [50, 62, 44, 56];
const LOWEST_ROOT_HZ = 110;
const INSTRUMENTAL_BARS = 8;
const TARGET_LOUDNESS_DB = -18;
const SINGING_WORDS_PER_MINUTE = 150;
const WATERMARK_HZ = 1500;
const WATERMARK_SECONDS = 0.25;

const SLOW_WORDS = ["slow", "ballad", "lo-fi", "lofi", "chill", "ambient", "calm"];
const FAST_WORDS = ["fast", "upbeat", "dance", "energetic", "punk", "driving", "edm"];

export async function composeSong(request: SongRequest): Promise<Song> {
  const bpm = request.reference?.bpm ?? tempoOfStyle(request.style);
  const rootHz = request.reference?.fundamentalHz ?? rootOfStyle(request.style);
  const barSeconds = (BEATS_PER_BAR * 60) / bpm;
  const vocals = request.lyrics === null ? null : await singLines(lyricLines(request.lyrics), espeakVoiceName(null, request.singer), barSeconds);
  return {
    bpm,
    rootHz,
    durationSeconds: songLength(request.reference, vocals, barSeconds),
    loudnessDb: request.reference?.loudnessDb ?? TARGET_LOUDNESS_DB,
    lines: vocals?.lines ?? [],
  };
}

// One take of a song; each variation moves the key up a fourth (vendorG's second track is variation 1).
export async function recordTakeToFile(song: Song, variation: number, encoding: TakeEncoding, outputPath: string): Promise<void> {
  const mix = new Float64Array(Math.round(song.durationSeconds * RATE));
  addBacking(mix, song.bpm, foldIntoOctave(song.rootHz * 2 ** ((5 * variation) / 12)));
  for (const line of song.lines) addAt(mix, line.pcm, line.startSeconds, 0.9);
  if (encoding.watermark) addWatermark(mix);
  const { format, sampleRate, bitrate } = encoding;
  await encodePcmToFile(toPcm(mix, song.loudnessDb), { format, sampleRate, gain: 1, ...(bitrate !== undefined ? { bitrate } : {}) }, outputPath);
}

// Lines to sing: section markers such as "[Chorus]" and blank lines are not sung.
function lyricLines(lyrics: string): string[] {
  return lyrics
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !/^\[.*\]$/.test(line));
}

function hashOf(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32BE(0);
}

function tempoOfStyle(style: string): number {
  const words = style.toLowerCase();
  if (SLOW_WORDS.some((word) => words.includes(word))) return 80;
  if (FAST_WORDS.some((word) => words.includes(word))) return 140;
  return 110;
}

function rootOfStyle(style: string): number {
  return LOWEST_ROOT_HZ * 2 ** ((hashOf(style) % 12) / 12);
}

// Keeps the key's root within one octave so the backing track stays in its band whatever the source.
function foldIntoOctave(hz: number): number {
  let folded = hz;
  while (folded >= LOWEST_ROOT_HZ * 2) folded /= 2;
  while (folded < LOWEST_ROOT_HZ) folded *= 2;
  return folded;
}

// Each line starts on a bar of its own after a one-bar intro; a long line takes as many bars as it needs.
async function singLines(lines: string[], voiceName: string, barSeconds: number): Promise<{ lines: SungLine[]; endSeconds: number }> {
  const sung: SungLine[] = [];
  let bar = 1;
  for (const line of lines) {
    const pcm = await speakWithEspeak(line, {
      language: voiceName,
      wordsPerMinute: SINGING_WORDS_PER_MINUTE,
      pitch: LINE_PITCHES[bar % LINE_PITCHES.length] ?? 50,
    });
    sung.push({ pcm, startSeconds: bar * barSeconds });
    bar += Math.max(1, Math.ceil(pcm.samples.length / 2 / pcm.sampleRate / barSeconds));
  }
  return { lines: sung, endSeconds: bar * barSeconds };
}

// A reference sets the length, unless the lyrics need longer; otherwise the song is the lyrics plus an outro
// bar, and never shorter than an instrumental.
function songLength(reference: RecordingTraits | null, vocals: { endSeconds: number } | null, barSeconds: number): number {
  const sungUntil = vocals === null ? 0 : vocals.endSeconds + barSeconds;
  if (reference !== null) return Math.max(reference.durationSeconds, sungUntil);
  return Math.max(INSTRUMENTAL_BARS * barSeconds, sungUntil);
}

function addBacking(mix: Float64Array, bpm: number, rootHz: number): void {
  const beatSeconds = 60 / bpm;
  for (let n = 0; n < mix.length; n++) {
    const t = n / RATE;
    const beat = Math.floor(t / beatSeconds);
    const sinceBeat = t - beat * beatSeconds;
    const chord = PROGRESSION[Math.floor(beat / BEATS_PER_BAR) % PROGRESSION.length] ?? { root: 0, third: 4 };
    const chordRoot = rootHz * 2 ** (chord.root / 12);
    // A 5 ms attack keeps each pluck free of clicks, which would spread energy above the backing track's band.
    const attack = Math.min(1, sinceBeat / 0.005);
    const pluck = attack * Math.exp((-3 * sinceBeat) / beatSeconds);
    const tones =
      Math.sin(2 * Math.PI * chordRoot * t) +
      0.6 * Math.sin(2 * Math.PI * chordRoot * 2 ** (chord.third / 12) * t) +
      0.6 * Math.sin(2 * Math.PI * chordRoot * 1.5 * t);
    const bass = 0.5 * Math.sin(Math.PI * chordRoot * t);
    const kick = attack * Math.exp(-25 * sinceBeat) * Math.sin(2 * Math.PI * 55 * sinceBeat);
    mix[n] = (mix[n] ?? 0) + 0.15 * pluck * tones + 0.12 * bass + 0.5 * kick;
  }
}

function addAt(mix: Float64Array, pcm: PcmAudio, startSeconds: number, gain: number): void {
  const start = Math.round(startSeconds * RATE);
  const count = Math.floor(pcm.samples.length / 2);
  for (let i = 0; i < count && start + i < mix.length; i++) {
    mix[start + i] = (mix[start + i] ?? 0) + (gain * pcm.samples.readInt16LE(i * 2)) / 32768;
  }
}

function addWatermark(mix: Float64Array): void {
  const count = Math.min(mix.length, Math.round(WATERMARK_SECONDS * RATE));
  for (let n = 0; n < count; n++) mix[n] = (mix[n] ?? 0) + 0.2 * Math.sin((2 * Math.PI * WATERMARK_HZ * n) / RATE);
}

// 16-bit samples at the target loudness, or as loud as the peaks allow without clipping.
function toPcm(mix: Float64Array, targetDb: number): PcmAudio {
  let peak = 1e-9;
  let sum = 0;
  for (const value of mix) {
    peak = Math.max(peak, Math.abs(value));
    sum += value * value;
  }
  const rms = Math.max(1e-9, Math.sqrt(sum / Math.max(1, mix.length)));
  const gain = Math.min(10 ** (targetDb / 20) / rms, 0.99 / peak);
  const samples = Buffer.alloc(mix.length * 2);
  for (let n = 0; n < mix.length; n++) samples.writeInt16LE(Math.round((mix[n] ?? 0) * gain * 32767), n * 2);
  return { samples, sampleRate: RATE };
}
