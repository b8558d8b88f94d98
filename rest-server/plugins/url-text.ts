import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";
import { isUnstorableText, ServiceError, UNSTORABLE_REASON } from "../../core/index.js";
import { sendError } from "./errors.js";

function refusal(loc: string[], reason: string): ServiceError {
  return new ServiceError("invalid_request", `The URL's ${loc.join(" ")} ${reason}.`, { details: { errors: [{ loc, reason }] } });
}

// What the path or the query of a URL decodes to must be text the service can store and look up: percent-escapes
// that are not UTF-8 (Fastify refuses those itself, as FST_ERR_BAD_URL) and escapes decoding to NUL or to half a
// surrogate pair are 422 invalid_request, before authentication and any route.
export function registerUrlText(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => {
    const [path = "", query = ""] = request.url.split(/\?(.*)/s);
    let decodedPath: string;
    try {
      decodedPath = decodeURIComponent(path);
    } catch {
      throw refusal(["path"], "is not percent-encoded UTF-8");
    }
    if (isUnstorableText(decodedPath)) throw refusal(["path"], UNSTORABLE_REASON);
    for (const [name, value] of new URLSearchParams(query)) {
      if (isUnstorableText(name) || isUnstorableText(value)) throw refusal(["query", name], UNSTORABLE_REASON);
    }
  });
}

// Fastify's router refuses an undecodable path before any hook runs; this answers it in SPEC.md's envelope.
export const frameworkErrors: FastifyServerOptions["frameworkErrors"] = (error, request: FastifyRequest, reply: FastifyReply) => {
  if (error.code === "FST_ERR_BAD_URL") return sendError(reply, request, refusal(["path"], "is not percent-encoded UTF-8"));
  return sendError(reply, request, new ServiceError("internal_error", "Something went wrong on our side; retry."));
};
