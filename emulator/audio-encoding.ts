import { runFfmpeg } from "../core/media/ffmpeg.js";

export const AUDIO_FORMATS = ["mp3", "wav", "flac", "opus", "pcm"] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

export const AUDIO_CONTENT_TYPES: Record<AudioFormat, string> = {
  mp3: "audio/mpeg",
  wav: "audio/wav",
  flac: "audio/flac",
  opus: "audio/ogg",
  pcm: "audio/L16",
};

const ENCODER_ARGS: Record<AudioFormat, string[]> = {
  mp3: ["-c:a", "libmp3lame", "-f", "mp3"],
  wav: ["-c:a", "pcm_s16le", "-f", "wav"],
  flac: ["-c:a", "flac", "-f", "flac"],
  // Ogg Opus keeps the requested rate only as a hint in its header: libopus codes at 48 kHz internally and ffprobe
  // reports a sample rate of 48000 for every Ogg Opus file, whether encoded from 8000, 16000, 24000 or 48000 Hz.
  opus: ["-c:a", "libopus", "-f", "ogg"],
  pcm: ["-c:a", "pcm_s16le", "-f", "s16le"],
};

const LOSSY_FORMATS: readonly AudioFormat[] = ["mp3", "opus"];

export interface PcmAudio {
  // Signed 16-bit little-endian mono samples.
  samples: Buffer;
  sampleRate: number;
}

export interface AudioEncoding {
  format: AudioFormat;
  sampleRate: number;
  // Linear amplitude factor; 1 leaves the level unchanged.
  gain: number;
  // Bits per second for the lossy formats (mp3, opus); the encoder's default when omitted.
  bitrate?: number;
}

// Writes to a file rather than stdout so that ffmpeg can go back and fill in the WAV sizes and FLAC STREAMINFO.
export async function encodePcmToFile(pcm: PcmAudio, encoding: AudioEncoding, outputPath: string): Promise<void> {
  await runFfmpeg(
    [
      "-f", "s16le", "-ar", String(pcm.sampleRate), "-ac", "1", "-i", "pipe:0",
      "-af", `volume=${encoding.gain}`,
      "-ar", String(encoding.sampleRate), "-ac", "1",
      // Bit-exact output leaves out the encoder tag, so a WAV file has the plain 44-byte header.
      "-fflags", "+bitexact", "-flags:a", "+bitexact",
      ...ENCODER_ARGS[encoding.format],
      ...(encoding.bitrate !== undefined && LOSSY_FORMATS.includes(encoding.format) ? ["-b:a", String(encoding.bitrate)] : []),
      "-y", outputPath,
    ],
    pcm.samples,
  );
}

export function durationMsOf(pcm: PcmAudio): number {
  return Math.round((pcm.samples.length / 2 / pcm.sampleRate) * 1000);
}
