import type { Readable } from "node:stream";
import type { RouteHandler, RouteRequest } from "./hand-written-route.js";
import type { FastifyRequest } from "fastify";

// What a download's answer is opened with: the method and the conditional headers (Range, If-Range,
// If-None-Match, If-Modified-Since), as core/artifacts/http-response.ts answers them.
export interface DownloadRequest {
  method: "GET" | "HEAD";
  range?: string;
  ifRange?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

export interface DownloadAnswer {
  status: number;
  headers: Record<string, string>;
  stream: Readable | null;
}

// GET and HEAD of a stored file (a signed artifact, a stock voice sample): `open` finds and answers it; this sends
// its status, headers and bytes.
export function downloadRoute<Params>(
  open: (request: FastifyRequest<RouteRequest<Params>>, download: DownloadRequest) => Promise<DownloadAnswer>,
): { handler: RouteHandler<Params>; head: RouteHandler<Params> } {
  const route =
    (method: "GET" | "HEAD"): RouteHandler<Params> =>
    async (request, reply) => {
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value.join(", ") : value;
      };
      const answer = await open(request, {
        method,
        range: header("range"),
        ifRange: header("if-range"),
        ifNoneMatch: header("if-none-match"),
        ifModifiedSince: header("if-modified-since"),
      });
      reply.status(answer.status).headers(answer.headers);
      return answer.stream ? reply.send(answer.stream) : reply.send();
    };
  return { handler: route("GET"), head: route("HEAD") };
}
