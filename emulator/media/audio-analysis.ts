import type { PcmAudio } from "../audio-encoding.js";

// What the emulated audio vendors hear in a recording: its loudness, its beat and its voice's pitch. Each is
// measured from the decoded samples (16-bit mono), so what a vendor produces from a reference or a voice sample
// follows what the recording really is, not what a request says about it.

const SILENCE_DB = -96;
// Multiples of a period (a beat, a pitch period) correlate nearly as well as the period itself.
const OCTAVE_TOLERANCE = 0.9;

export interface RecordingTraits {
  durationSeconds: number;
  loudnessDb: number;
  // Null when the recording has no beat or no pitch to follow.
  bpm: number | null;
  fundamentalHz: number | null;
}

export function traitsOf(pcm: PcmAudio): RecordingTraits {
  return { durationSeconds: durationSecondsOf(pcm), loudnessDb: loudnessDb(pcm), bpm: tempoBpm(pcm), fundamentalHz: fundamentalHz(pcm) };
}

function sampleAt(pcm: PcmAudio, index: number): number {
  return pcm.samples.readInt16LE(index * 2) / 32768;
}

export function sampleCount(pcm: PcmAudio): number {
  return Math.floor(pcm.samples.length / 2);
}

export function durationSecondsOf(pcm: PcmAudio): number {
  return sampleCount(pcm) / pcm.sampleRate;
}

// Root-mean-square level in dB relative to full scale.
export function loudnessDb(pcm: PcmAudio): number {
  const count = sampleCount(pcm);
  if (count === 0) return SILENCE_DB;
  let sum = 0;
  for (let i = 0; i < count; i++) sum += sampleAt(pcm, i) ** 2;
  const rms = Math.sqrt(sum / count);
  return rms > 0 ? Math.max(SILENCE_DB, 20 * Math.log10(rms)) : SILENCE_DB;
}

const ENVELOPE_RATE = 100;
const MIN_BPM = 60;
const MAX_BPM = 180;

// Energy per 10 ms frame.
function energyEnvelope(pcm: PcmAudio): number[] {
  const frame = Math.max(1, Math.round(pcm.sampleRate / ENVELOPE_RATE));
  const envelope: number[] = [];
  const count = sampleCount(pcm);
  for (let start = 0; start + frame <= count; start += frame) {
    let sum = 0;
    for (let i = start; i < start + frame; i++) sum += sampleAt(pcm, i) ** 2;
    envelope.push(Math.sqrt(sum / frame));
  }
  return envelope;
}

// The beat, in beats per minute (60 to 180), from the autocorrelation of the onset strength (rises in energy);
// null when the recording has no beat to speak of.
export function tempoBpm(pcm: PcmAudio): number | null {
  const envelope = energyEnvelope(pcm);
  const onsets = envelope.map((value, i) => Math.max(0, value - (envelope[i - 1] ?? value)));
  const mean = onsets.reduce((sum, value) => sum + value, 0) / Math.max(1, onsets.length);
  const centred = onsets.map((value) => value - mean);
  const minLag = Math.floor((60 / MAX_BPM) * ENVELOPE_RATE);
  const maxLag = Math.ceil((60 / MIN_BPM) * ENVELOPE_RATE);
  const scores = new Map<number, number>();
  for (let lag = minLag; lag <= maxLag && lag < centred.length; lag++) {
    let score = 0;
    for (let i = lag; i < centred.length; i++) score += (centred[i] ?? 0) * (centred[i - lag] ?? 0);
    scores.set(lag, score / (centred.length - lag));
  }
  const best = Math.max(0, ...scores.values());
  if (best <= 0) return null;
  // A beat also repeats every two beats and every bar; the shortest lag that nearly matches the best is the beat.
  let lag = minLag;
  while ((scores.get(lag) ?? 0) < best * OCTAVE_TOLERANCE) lag++;
  while ((scores.get(lag + 1) ?? 0) > (scores.get(lag) ?? 0)) lag++;
  return Math.round((60 * ENVELOPE_RATE) / lag);
}

const MIN_PITCH_HZ = 60;
const MAX_PITCH_HZ = 400;
const PITCH_FRAME_SECONDS = 0.04;
// A frame counts as voiced when its normalised autocorrelation at the best lag reaches this.
const VOICED_CORRELATION = 0.6;
const MAX_PITCH_FRAMES = 300;

// The median fundamental frequency of the voiced frames, in Hz, or null when nothing in the recording is
// voiced (noise, silence).
export function fundamentalHz(pcm: PcmAudio): number | null {
  const frame = Math.round(pcm.sampleRate * PITCH_FRAME_SECONDS);
  const minLag = Math.floor(pcm.sampleRate / MAX_PITCH_HZ);
  const maxLag = Math.ceil(pcm.sampleRate / MIN_PITCH_HZ);
  const count = sampleCount(pcm);
  const loudest = energyEnvelope(pcm).reduce((max, value) => Math.max(max, value), 1e-9);
  const estimates: number[] = [];
  const values = new Float64Array(frame + maxLag);
  const correlations = new Float64Array(maxLag + 1);
  // A long sample is judged from at most MAX_PITCH_FRAMES frames spread over all of it.
  const step = Math.max(frame, Math.floor((count - frame - maxLag) / MAX_PITCH_FRAMES));
  for (let start = 0; start + frame + maxLag <= count; start += step) {
    for (let i = 0; i < values.length; i++) values[i] = sampleAt(pcm, start + i);
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += (values[i] ?? 0) ** 2;
    // Quiet frames (pauses, breaths) say nothing about the voice.
    if (Math.sqrt(energy / frame) < loudest * 0.1) continue;
    let best = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let product = 0;
      let shifted = 0;
      for (let i = 0; i < frame; i++) {
        product += (values[i] ?? 0) * (values[i + lag] ?? 0);
        shifted += (values[i + lag] ?? 0) ** 2;
      }
      correlations[lag] = product / Math.sqrt(energy * shifted || 1);
      best = Math.max(best, correlations[lag] ?? 0);
    }
    if (best < VOICED_CORRELATION) continue;
    // Every multiple of the period correlates too; the shortest lag that nearly matches the best is the period.
    let lag = minLag;
    while (lag < maxLag && (correlations[lag] ?? 0) < best * OCTAVE_TOLERANCE) lag++;
    while (lag < maxLag && (correlations[lag + 1] ?? 0) > (correlations[lag] ?? 0)) lag++;
    estimates.push(pcm.sampleRate / lag);
  }
  if (estimates.length === 0) return null;
  estimates.sort((a, b) => a - b);
  return estimates[Math.floor(estimates.length / 2)] ?? null;
}
