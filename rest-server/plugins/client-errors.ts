import type { Socket } from "node:net";
import type { FastifyServerOptions } from "fastify";
import { errorBody } from "../../core/index.js";
import { newRequestId } from "../../http-face/request-id.js";

// Node's HTTP parser refuses some requests before Fastify sees a request at all: headers over its 16 KB limit
// (431), requests that are not HTTP it can read (a bad method, a malformed Content-Length: 400) and, when a request
// time limit is set, requests that do not arrive within it (408). Node's and Fastify's own answers to those are
// bare; this one is SPEC.md's envelope with a request id. The status stays HTTP's own (no request exists to route,
// and the connection closes after it), the code is `invalid_request`.
function refusalOf(error: NodeJS.ErrnoException): { status: number; reason: string; message: string } {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return {
      status: 431,
      reason: "exceed 16384 bytes in all",
      message: "The request's headers exceed 16 KB in all; send large values in the body.",
    };
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return { status: 408, reason: "did not arrive in time", message: "The request did not arrive in time; send it again." };
  }
  return { status: 400, reason: "is not a well-formed HTTP/1.1 request", message: "The request is not well-formed HTTP/1.1." };
}

const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large" };

export const clientErrorHandler: FastifyServerOptions["clientErrorHandler"] = (error: NodeJS.ErrnoException, socket: Socket) => {
  // A connection the client reset, or one already gone, has nobody to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  if (socket.writable) {
    const { status, reason, message } = refusalOf(error);
    const requestId = newRequestId();
    const loc = status === 431 ? ["header"] : ["request"];
    const body = JSON.stringify({ error: errorBody("invalid_request", message, { details: { errors: [{ loc, reason }] }, requestId }) });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
};
