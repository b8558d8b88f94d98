import { FALLBACK_LANGUAGE } from "../espeak.js";

// The voices the emulated audio vendors speak and sing with: an espeak-ng language, a variant (espeak's male
// default or its female "+f3") and a natural pitch on espeak's 0–99 scale.

export interface Timbre {
  variant: "" | "+f3";
  // The espeak pitch at which the voice speaks when asked for no pitch change.
  naturalPitch: number;
}

export const MALE_TIMBRE: Timbre = { variant: "", naturalPitch: 50 };
export const FEMALE_TIMBRE: Timbre = { variant: "+f3", naturalPitch: 50 };

// Measured with espeak-ng on English text: the male voice's median fundamental runs from about 67 Hz at pitch 0
// to 168 Hz at 99, the female one from 145 Hz to 334 Hz, both close to exponential in the pitch.
const RANGES = [
  { timbre: MALE_TIMBRE, lowHz: 67, highHz: 168 },
  { timbre: FEMALE_TIMBRE, lowHz: 145, highHz: 334 },
] as const;
const FEMALE_ABOVE_HZ = 155;

// The espeak voice whose speaking pitch is closest to a measured fundamental frequency.
export function timbreForFundamental(hz: number): Timbre {
  const range = hz >= FEMALE_ABOVE_HZ ? RANGES[1] : RANGES[0];
  const pitch = (99 * Math.log(hz / range.lowHz)) / Math.log(range.highHz / range.lowHz);
  return { variant: range.timbre.variant, naturalPitch: Math.round(Math.min(99, Math.max(0, pitch))) };
}

// What espeak-ng is given as `-v`: the language (English when none) with the variant.
export function espeakVoiceName(language: string | null, timbre: Timbre): string {
  return `${language?.trim() || FALLBACK_LANGUAGE}${timbre.variant}`;
}

// The espeak pitch for a requested change of -1 (lowest) to 1 (highest); 0 keeps the voice's own pitch.
export function espeakPitch(timbre: Timbre, change: number): number {
  const { naturalPitch } = timbre;
  return change >= 0 ? naturalPitch + (99 - naturalPitch) * change : naturalPitch + (naturalPitch - 1) * change;
}
