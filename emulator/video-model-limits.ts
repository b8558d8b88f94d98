import { VIDEO_MODELS, type VideoModel } from "../core/catalog/video-models.js";
import type { VideoContainer } from "./media/video-render.js";

// The emulated vendors generate exactly what the service's catalog says each model can: the same constraints
// decide what they refuse, so a request the service admits is one the emulator accepts.

export function textToVideoModel(family: string, id: unknown): VideoModel | undefined {
  return VIDEO_MODELS.find((m) => m.family === family && m.id === id && m.capabilities.includes("text_to_video"));
}

export interface VideoAsk {
  resolution: string;
  aspectRatio: string;
  durationSeconds: number;
  container: VideoContainer;
  withAudio: boolean;
  returnLastFrame: boolean;
}

// What the vendor would refuse about a request, named by the control (in neutral terms); null when it can be made.
export function videoAskProblem(model: VideoModel, ask: VideoAsk): { control: keyof VideoAsk; reason: string } | null {
  const c = model.constraints;
  const checks: [keyof VideoAsk, boolean, string][] = [
    ["resolution", c.resolutions.includes(ask.resolution), `resolution ${ask.resolution} is not one of ${c.resolutions.join(", ")}`],
    ["aspectRatio", c.aspect_ratios.includes(ask.aspectRatio), `ratio ${ask.aspectRatio} is not one of ${c.aspect_ratios.join(", ")}`],
    ["durationSeconds", c.durations.includes(ask.durationSeconds), `duration ${ask.durationSeconds} is not one of ${c.durations.join(", ")}`],
    ["container", c.output_formats.includes(ask.container), `format ${ask.container} is not one of ${c.output_formats.join(", ")}`],
    ["withAudio", c.generate_audio.includes(ask.withAudio), `audio ${ask.withAudio ? "on" : "off"} is not offered by ${model.id}`],
    ["returnLastFrame", c.return_last_frame.includes(ask.returnLastFrame), `last frame output is not offered by ${model.id}`],
  ];
  const failed = checks.find(([, ok]) => !ok);
  return failed ? { control: failed[0], reason: failed[2] } : null;
}
