import type { IncomingMessage } from "node:http";
import { identifierRandomBytes } from "../../core/index.js";

const CLIENT_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

// A client's X-Request-Id is echoed when it is a sane token; otherwise the server makes one.
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  if (typeof given === "string" && CLIENT_ID.test(given)) return given;
  return `req_${identifierRandomBytes(12).toString("hex")}`;
}
