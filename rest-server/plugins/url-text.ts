import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";
import { isUnstorableText, ServiceError, UNSTORABLE_REASON } from "../../core/index.js";
import { sendError } from "./errors.js";
import { requestLog } from "../../http-face/request-log.js";

function refusal(loc: string[], reason: string): ServiceError {
  return new ServiceError("invalid_request", `The URL's ${loc.join(" ")} ${reason}.`, { details: { errors: [{ loc, reason }] } });
}

// What the path or the query of a URL decodes to must be text the service can store and look up: percent-escapes
// that are not UTF-8 (Fastify refuses those itself, as FST_ERR_BAD_URL) and escapes decoding to NUL or to half a
// surrogate pair are 422 invalid_request, before authentication and any route.
export function registerUrlText(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => {
    // Without a percent-escape a URL decodes to itself, whose characters the HTTP parser already limited.
    if (!request.url.includes("%")) return done();
    const [path = "", query = ""] = request.url.split(/\?(.*)/s);
    let decodedPath: string;
    try {
      decodedPath = decodeURIComponent(path);
    } catch {
      return done(refusal(["path"], "is not percent-encoded UTF-8"));
    }
    if (isUnstorableText(decodedPath)) return done(refusal(["path"], UNSTORABLE_REASON));
    for (const [name, value] of new URLSearchParams(query)) {
      if (isUnstorableText(name) || isUnstorableText(value)) return done(refusal(["query", name], UNSTORABLE_REASON));
    }
    done();
  });
}

// The longest path parameter the router matches. Every id the service mints is far shorter (task ids are 31
// characters, model names under 64), so a longer one can only be a mistake or a probe.
export const PATH_PARAMETER_MAX_CHARS = 100;

// Fastify's router refuses an undecodable path, and a path parameter over its length limit, before any hook runs;
// this answers both in SPEC.md's envelope (422 invalid_request naming the limit), never as an internal error.
export const frameworkErrors: FastifyServerOptions["frameworkErrors"] = (error, request: FastifyRequest, reply: FastifyReply) => {
  if (error.code === "FST_ERR_BAD_URL") return sendError(reply, request, refusal(["path"], "is not percent-encoded UTF-8"));
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    return sendError(reply, request, refusal(["path"], `has a parameter longer than ${PATH_PARAMETER_MAX_CHARS} characters`));
  }
  requestLog(request).error({ err: error }, "router error");
  return sendError(reply, request, new ServiceError("internal_error", "Something went wrong on our side; retry."));
};
