import { VIDEO_MODELS, type VideoModel } from "../core/catalog/video-models.js";
import { videoDimensions, type VideoDimensions } from "../core/catalog/video-dimensions.js";
import type { VideoContainer } from "./media/video-render.js";
import type { LocalMedia } from "./media/video-materials.js";

// The emulated vendors generate exactly what the service's catalog says each model can: the same constraints
// decide what they refuse, so a request the service admits is one the emulator accepts.

export function videoModel(family: string, id: unknown, capability: string): VideoModel | undefined {
  return VIDEO_MODELS.find((m) => m.family === family && m.id === id && m.capabilities.includes(capability));
}

// Whether the family serves the model at all, for whatever capability (an unknown model is refused differently
// from a known one asked for something it does not do).
export function isFamilyVideoModel(family: string, id: unknown): boolean {
  return VIDEO_MODELS.some((m) => m.family === family && m.id === id);
}

export interface VideoAsk {
  capability: string;
  resolution: string;
  // null: the ratio of the source picture, which any model keeps when asked to.
  aspectRatio: string | null;
  durationSeconds: number;
  container: VideoContainer;
  withAudio: boolean;
  returnLastFrame: boolean;
}

// What the vendor would refuse about a request, named by the control (in neutral terms); null when it can be made.
// An extension's length is checked against its source (video-input-limits.ts), not against the generated lengths.
export function videoAskProblem(model: VideoModel, ask: VideoAsk): { control: keyof VideoAsk; reason: string } | null {
  const c = model.constraints;
  const checks: [keyof VideoAsk, boolean, string][] = [
    ["resolution", c.resolutions.includes(ask.resolution), `resolution ${ask.resolution} is not one of ${c.resolutions.join(", ")}`],
    [
      "aspectRatio",
      ask.aspectRatio === null || c.aspect_ratios.includes(ask.aspectRatio),
      `ratio ${ask.aspectRatio} is not one of ${c.aspect_ratios.join(", ")}`,
    ],
    [
      "durationSeconds",
      ask.capability === "video_extend" || c.durations.includes(ask.durationSeconds),
      `duration ${ask.durationSeconds} is not one of ${c.durations.join(", ")}`,
    ],
    ["container", c.output_formats.includes(ask.container), `format ${ask.container} is not one of ${c.output_formats.join(", ")}`],
    ["withAudio", c.generate_audio.includes(ask.withAudio), `audio ${ask.withAudio ? "on" : "off"} is not offered by ${model.id}`],
    ["returnLastFrame", c.return_last_frame.includes(ask.returnLastFrame), `last frame output is not offered by ${model.id}`],
  ];
  const failed = checks.find(([, ok]) => !ok);
  return failed ? { control: failed[0], reason: failed[2] } : null;
}

// The tier and ratio of a frame size a vendor was sent in pixels: one of the model's tier × ratio frames, or a
// tier's frame at the ratio of the source picture (null ratio).
export function tierOfFrame(model: VideoModel, size: VideoDimensions, source: LocalMedia | undefined) {
  const same = (frame: VideoDimensions) => frame.width === size.width && frame.height === size.height;
  for (const resolution of model.constraints.resolutions) {
    const aspectRatio = model.constraints.aspect_ratios.find((ratio) => same(videoDimensions(resolution, ratio)));
    if (aspectRatio !== undefined) return { resolution, aspectRatio };
    if (source?.width && source.height && same(videoDimensions(resolution, `${source.width}:${source.height}`))) {
      return { resolution, aspectRatio: null };
    }
  }
  return undefined;
}
