import type { VideoSample } from "./video-sampling.js";

// What the emulated video-understanding model answers: the prompt echoed, then what it decoded (length, size,
// how many frames it sampled and at what rate, and the colours of each sampled frame), as prose or, for a JSON
// response format, as a JSON document.

const percent = (share: number) => `${Math.round(share * 100)}%`;

export function answerAboutVideo(prompt: string, sample: VideoSample, format: "text" | "json"): string {
  if (format === "json") {
    return JSON.stringify({
      prompt,
      duration_seconds: Number(sample.durationSeconds.toFixed(3)),
      width: sample.width,
      height: sample.height,
      sampling_fps: sample.fps,
      sampled_frames: sample.frames.length,
      frames: sample.frames.map((frame) => ({
        time_seconds: frame.timeSeconds,
        colors: frame.colours.map((colour) => ({ ...colour, share: Math.round(colour.share * 100) / 100 })),
      })),
    });
  }
  const lines = [
    `You asked: "${prompt}".`,
    `The video lasts ${sample.durationSeconds.toFixed(1)} s at ${sample.width}×${sample.height}. ` +
      `Sampled at ${sample.fps} fps: ${sample.frames.length} frame${sample.frames.length === 1 ? "" : "s"}.`,
    ...sample.frames.map(
      (frame, index) =>
        `Frame ${index + 1} at ${frame.timeSeconds.toFixed(1)} s: ${frame.colours.map((c) => `${c.name} ${percent(c.share)}`).join(", ")}.`,
    ),
  ];
  return lines.join("\n");
}
