import type { FastifyInstance } from "fastify";
import type { Core } from "../../core/index.js";

// What a browser client sends and may read beyond the CORS-safelisted headers.
const ALLOWED_REQUEST_HEADERS = "Authorization, Content-Type, Idempotency-Key, Prefer, X-Request-Id, Last-Event-ID";
const EXPOSED_HEADERS = [
  "X-Request-Id",
  "Idempotent-Replayed",
  "Preference-Applied",
  "Deprecation",
  "Sunset",
  "Retry-After",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Content-Disposition",
].join(", ");
const ALLOWED_METHODS = "GET, POST, DELETE, OPTIONS";
const PREFLIGHT_MAX_AGE_SECONDS = 600;

// CORS for browser clients, off unless CORS_ALLOWED_ORIGINS names origins: a request from one of them is answered
// with its own origin allowed (never `*`, and no credentials: the API key travels in Authorization, not in a
// cookie), and its preflight with 204 before any route, auth or rate limit (a preflight carries no key). Other
// origins get no CORS header at all, so the browser keeps the answer from their page.
export function registerCors(app: FastifyInstance, core: Core): void {
  const origins = new Set(core.config.corsAllowedOrigins);
  if (origins.size === 0) return;
  app.addHook("onRequest", async (request, reply) => {
    const origin = request.headers.origin;
    reply.header("Vary", "Origin");
    if (origin === undefined || !origins.has(origin)) return;
    reply.header("Access-Control-Allow-Origin", origin);
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined) {
      return reply
        .header("Access-Control-Allow-Methods", ALLOWED_METHODS)
        .header("Access-Control-Allow-Headers", ALLOWED_REQUEST_HEADERS)
        .header("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_SECONDS))
        .status(204)
        .send();
    }
    reply.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  });
}
