import { VIDEO_OUTPUT_METER, type VideoModel } from "../../catalog/video-models.js";
import { findPrice, priceLine } from "../../credits/pricing.js";
import type { Quote } from "../types.js";

// Generation is prepaid per output second at the price of the output resolution; an omitted resolution is
// the model's default tier and is priced as such.
export function videoGenerationQuote(model: VideoModel, seconds: number, resolution: string | undefined): Quote {
  const tier = resolution ?? model.constraints.default_resolution;
  const line = priceLine(findPrice(model.prices, VIDEO_OUTPUT_METER, { resolution: tier }), BigInt(seconds));
  return {
    lines: [line],
    totalMicro: line.amountMicro,
    counters: { output_video_seconds: seconds, video_seconds: seconds },
  };
}

// The seconds a generation or edit is billed for: the explicit duration, or the model default when the
// request omits it or says `auto`.
export function billedSeconds(model: VideoModel, duration: number | "auto" | undefined): number {
  return typeof duration === "number" ? duration : model.constraints.default_duration;
}
