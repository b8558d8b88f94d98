import { randomBytes } from "node:crypto";

const CLIENT_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

// The id a tool error carries for support correlation: the caller's X-Request-Id when it is a sane token (as
// REST does), otherwise a new one.
export function requestIdFrom(header: string | string[] | undefined): string {
  if (typeof header === "string" && CLIENT_ID.test(header)) return header;
  return `req_${randomBytes(12).toString("hex")}`;
}
