import { StockVoiceSamples, type Core } from "../../core/index.js";
import { downloadRoute } from "./download-route.js";
import type { HandWrittenRoutes } from "./hand-written-route.js";

// A preset voice's stock sample (core/voices/stock-sample.ts): GET and HEAD, with Range and conditional requests
// as for an artifact, so a player can seek it and a browser can keep it.
export function voiceSampleRoutes(core: Core): HandWrittenRoutes<"getVoiceSample"> {
  const samples = new StockVoiceSamples(core);
  return { getVoiceSample: downloadRoute((request, download) => samples.open(request.params.voice_id, download)) };
}
