import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errorBody, ServiceError } from "../../core/index.js";

export function sendError(reply: FastifyReply, request: FastifyRequest, error: ServiceError): FastifyReply {
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
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ServiceError("invalid_request", "The request body is too large; send media by URL or as an uploaded artifact.", {
        details: { errors: [{ loc: ["body"], reason: "too large" }] },
      });
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

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof ServiceError ? error : fromFastifyError(error);
    if (known) return sendError(reply, request, known);
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send({
      error: errorBody("internal_error", "Something went wrong on our side; retry with the same Idempotency-Key.", {
        requestId: request.id,
      }),
    });
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, request, new ServiceError("not_found", `No route ${request.method} ${request.url.split("?")[0]}.`)),
  );
}
