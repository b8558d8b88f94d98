import type { VideoConstraints, VideoModel } from "../../catalog/video-models.js";
import type { VideoOptions } from "../../contracts/video-options.js";
import type { Requirement } from "../../selection/select.js";

export type VideoRequirement = Requirement<VideoModel>;

// The request's value must be one of the values the model lists; the rejection quotes that list.
export function oneOf<T>(
  param: string,
  code: string,
  label: string,
  received: T,
  supported: (c: VideoConstraints) => readonly T[],
): VideoRequirement {
  return {
    param,
    check: (m) => {
      const values = supported(m.constraints);
      return values.includes(received)
        ? null
        : { code, message: `${label} ${JSON.stringify(received)} is not offered`, received, supported: values };
    },
  };
}

// A control the model either honours or lacks entirely.
export function feature(
  param: string,
  code: string,
  label: string,
  received: unknown,
  has: (c: VideoConstraints) => boolean,
): VideoRequirement {
  return {
    param,
    check: (m) => (has(m.constraints) ? null : { code, message: `${label} is not supported`, received, supported: false }),
  };
}

// The output controls every generation, edit and extend body shares, except `duration` (whose meaning differs
// on extend). Only controls the request sets become requirements: an omitted one leaves the model's default.
export function optionRequirements(input: VideoOptions): VideoRequirement[] {
  const requirements: VideoRequirement[] = [];
  if (input.resolution !== undefined) {
    requirements.push(oneOf("/resolution", "unsupported_resolution", "resolution", input.resolution, (c) => c.resolutions));
  }
  if (input.aspect_ratio !== undefined) {
    requirements.push(oneOf("/aspect_ratio", "unsupported_aspect_ratio", "aspect ratio", input.aspect_ratio, (c) => c.aspect_ratios));
  }
  if (input.seed !== undefined) {
    requirements.push(feature("/seed", "unsupported_seed", "seed", input.seed, (c) => c.seed));
  }
  if (input.negative_prompt !== undefined) {
    requirements.push(feature("/negative_prompt", "unsupported_negative_prompt", "negative_prompt", true, (c) => c.negative_prompt));
  }
  if (input.enhance_prompt !== undefined && input.enhance_prompt !== null) {
    requirements.push(
      feature("/enhance_prompt", "unsupported_enhance_prompt", "an explicit enhance_prompt", input.enhance_prompt, (c) => c.enhance_prompt),
    );
  }
  if (input.watermark !== undefined) {
    requirements.push(oneOf("/watermark", "unsupported_watermark", "watermark", input.watermark, (c) => c.watermark));
  }
  if (input.generate_audio !== undefined) {
    requirements.push(oneOf("/generate_audio", "unsupported_generate_audio", "generate_audio", input.generate_audio, (c) => c.generate_audio));
  }
  if (input.web_search !== undefined) {
    requirements.push(oneOf("/web_search", "unsupported_web_search", "web_search", input.web_search, (c) => c.web_search));
  }
  if (input.return_last_frame !== undefined) {
    requirements.push(
      oneOf("/return_last_frame", "unsupported_return_last_frame", "return_last_frame", input.return_last_frame, (c) => c.return_last_frame),
    );
  }
  // Every model writes mp4, so the default costs nothing to check and `mov` is refused where not advertised.
  requirements.push(oneOf("/output_format", "unsupported_output_format", "output format", input.output_format, (c) => c.output_formats));
  return requirements;
}

// Generation and edit: an explicit duration must be one the model generates; `auto` takes the model default.
export function durationRequirements(duration: VideoOptions["duration"]): VideoRequirement[] {
  if (duration === undefined || duration === "auto") return [];
  return [oneOf("/duration", "unsupported_duration", "duration", duration, (c) => c.durations)];
}

export function drivingAudioRequirement(param: "/audio" | "/driving_audio"): VideoRequirement {
  return feature(param, "unsupported_driving_audio", "driving audio", true, (c) => c.driving_audio);
}
