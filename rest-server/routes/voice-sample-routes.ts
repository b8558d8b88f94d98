import { StockVoiceSamples, type Core } from "../../core/index.js";
import type { HandWrittenRoutes, RouteHandler } from "./hand-written-route.js";

// A preset voice's stock sample (core/voices/stock-sample.ts): GET and HEAD, with Range and conditional requests
// as for an artifact, so a player can seek it and a browser can keep it.
export function voiceSampleRoutes(core: Core): HandWrittenRoutes<"getVoiceSample"> {
  const samples = new StockVoiceSamples(core);
  const sample =
    (method: "GET" | "HEAD"): RouteHandler =>
    async (request, reply) => {
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value.join(", ") : value;
      };
      const answer = await samples.open(request.params.voice_id!, {
        method,
        range: header("range"),
        ifRange: header("if-range"),
        ifNoneMatch: header("if-none-match"),
        ifModifiedSince: header("if-modified-since"),
      });
      reply.status(answer.status).headers(answer.headers);
      return answer.stream ? reply.send(answer.stream) : reply.send();
    };
  return { getVoiceSample: { handler: sample("GET"), head: sample("HEAD") } };
}
