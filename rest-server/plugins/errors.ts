import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errorBody, REQUEST_BODY_MAX_BYTES, REQUEST_BODY_MAX_MIB, ServiceError } from "../../core/index.js";
import { requestLog } from "../../http-face/request-log.js";

// Also for refusals made before the app's onRequest hook ran (the router's), so every error carries the id.
export function sendError(reply: FastifyReply, request: FastifyRequest, error: ServiceError): FastifyReply {
  reply.header("X-Request-Id", request.id);
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.status(error.httpStatus).send({ error: error.toBody(request.id) });
}

// Fastify's own refusals (body parsing, content type, size) in the vocabulary of SPEC.md.
function fromFastifyError(error: FastifyError): ServiceError | null {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ServiceError("invalid_request", "Send the body as JSON with `Content-Type: application/json`.", {
        details: { errors: [{ loc: ["header", "Content-Type"], reason: "must be application/json" }] },
      });
    // Only inline media makes a body this large (SPEC.md: media_too_large, 413).
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ServiceError(
        "media_too_large",
        `The request body is larger than ${REQUEST_BODY_MAX_MIB} MiB; send large media by HTTPS URL, or upload it with POST /v1/assets and pass {"type": "artifact", "artifact_id": "art_…"}.`,
        { details: { max_bytes: REQUEST_BODY_MAX_BYTES } },
      );
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new ServiceError("invalid_request", "The body is not valid JSON.", {
        details: { errors: [{ loc: ["body"], reason: error.message }] },
      });
    default:
      return null;
  }
}

// A route's URL pattern (`/v1/tasks/:task_id`) as a regular expression over concrete paths.
function routePattern(url: string): RegExp {
  const parts = url.split(/(:\w+)/).map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^$|()[\]{}\\]/g, "\\$&")));
  return new RegExp(`^${parts.join("")}$`);
}

// The methods the app's routes take at a concrete path, compiled from the registered routes when the first
// unmatched request asks (every route is registered by then).
function allowedMethods(app: FastifyInstance): (path: string) => string[] {
  let routes: { method: string; pattern: RegExp }[] | null = null;
  return (path) => {
    routes ??= app.registeredRoutes.map(({ method, url }) => ({ method, pattern: routePattern(url) }));
    return [...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))];
  };
}

// The path is echoed only in part: a URL can be as long as Node's 16 KB header limit allows.
const ECHOED_PATH_CHARS = 200;

// A path no route takes is 404 not_found. A path that exists under other methods is also not_found (SPEC.md's
// code for "endpoint not found"; an endpoint is a method and a path), with `Allow` and `details.allowed_methods`
// saying which methods it takes, rather than a 405 outside the catalogue.
function noRoute(method: string, path: string, methodsAt: (path: string) => string[]): ServiceError {
  const shown = path.length > ECHOED_PATH_CHARS ? `${path.slice(0, ECHOED_PATH_CHARS)}…` : path;
  const allowed = path.length > ECHOED_PATH_CHARS ? [] : methodsAt(path);
  if (allowed.length === 0) return new ServiceError("not_found", `No route ${method} ${shown}.`);
  const methods = allowed.includes("GET") ? [...allowed, "HEAD"] : allowed;
  return new ServiceError("not_found", `No route ${method} ${shown}; this path takes ${methods.join(", ")}.`, {
    details: { allowed_methods: methods },
    headers: { Allow: methods.join(", ") },
  });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof ServiceError ? error : fromFastifyError(error);
    if (known) return sendError(reply, request, known);
    requestLog(request).error({ err: error }, "unhandled error");
    return reply.status(500).send({
      error: errorBody("internal_error", "Something went wrong on our side; retry with the same Idempotency-Key.", {
        requestId: request.id,
      }),
    });
  });
  const methodsAt = allowedMethods(app);
  app.setNotFoundHandler((request, reply) => sendError(reply, request, noRoute(request.method, request.url.split("?")[0] ?? "", methodsAt)));
}
