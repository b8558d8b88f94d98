import type { IncomingMessage } from "node:http";
import { CLIENT_REQUEST_ID, identifierRandomBytes } from "../core/index.js";

export function newRequestId(): string {
  return `req_${identifierRandomBytes(12).toString("hex")}`;
}

// A client's X-Request-Id is echoed when it is a sane token (CLIENT_REQUEST_ID); any other value is replaced by
// one the server makes, silently: an id only correlates, so refusing the request over it would turn
// a support aid into an outage, and echoing it would put arbitrary text into headers and logs (docs/decisions.md).
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  if (typeof given === "string" && CLIENT_REQUEST_ID.test(given)) return given;
  return newRequestId();
}
