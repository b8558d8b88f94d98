import { durationMsOf, encodePcmToFile, type AudioFormat } from "./audio-encoding.js";
import { speakWithEspeak } from "./espeak.js";
import { espeakPitch, espeakVoiceName, MALE_TIMBRE, type Timbre } from "./media/voice-timbre.js";

export interface SpeechRequest {
  text: string;
  // A BCP-47 language tag or primary subtag; null or one espeak-ng does not know means English.
  language: string | null;
  // Multiple of the normal speaking rate.
  speed: number;
  // -1 (lowest) to 1 (highest); 0 is the voice's natural pitch.
  pitch: number;
  // Linear gain; 1 is the voice's natural level.
  volume: number;
  format: AudioFormat;
  sampleRate: number;
  // A cloned voice's timbre; preset voices speak with espeak's default one.
  timbre?: Timbre;
}

export interface SynthesizedSpeech {
  durationMs: number;
}

// espeak-ng's own default rate, taken as speed 1.
const NORMAL_WORDS_PER_MINUTE = 175;

export async function synthesizeSpeechToFile(request: SpeechRequest, outputPath: string): Promise<SynthesizedSpeech> {
  const timbre = request.timbre ?? MALE_TIMBRE;
  const pcm = await speakWithEspeak(request.text, {
    language: espeakVoiceName(request.language, timbre),
    wordsPerMinute: NORMAL_WORDS_PER_MINUTE * request.speed,
    pitch: espeakPitch(timbre, request.pitch),
  });
  await encodePcmToFile(pcm, { format: request.format, sampleRate: request.sampleRate, gain: request.volume }, outputPath);
  return { durationMs: durationMsOf(pcm) };
}
