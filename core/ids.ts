import { randomBytes } from "node:crypto";
import type { Clock } from "./clock.js";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

// Random bytes for identifiers (not secrets), drawn from a pool refilled a few kilobytes at a time: one call into
// the system's generator per ~400 ids instead of one per id, which showed in profiles of the request path.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

export function identifierRandomBytes(count: number): Buffer {
  if (poolOffset + count > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, count));
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + count);
  poolOffset += count;
  return bytes;
}

// Time-ordered ids (48-bit millisecond time, then 80 random bits, Crockford base32) so that listing by id is
// listing by creation time, which keeps cursor pagination a single index range scan.
export function timeOrderedId(prefix: string, now: number = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const random = identifierRandomBytes(10);
  let rest = "";
  let acc = 0;
  let bits = 0;
  for (const byte of random) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      rest += CROCKFORD[(acc >> bits) & 31];
    }
  }
  return `${prefix}_${time}${rest}`;
}

export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString("base64url");
}

export interface IdGenerator {
  task(): string;
  artifact(): string;
  tenant(): string;
  apiKey(): string;
  event(): string;
  callbackSigningKey(): string;
  callbackDelivery(): string;
}

export function defaultIds(clock: Clock = () => new Date()): IdGenerator {
  return {
    task: () => timeOrderedId("task", clock().getTime()),
    artifact: () => timeOrderedId("art", clock().getTime()),
    tenant: () => timeOrderedId("ten", clock().getTime()),
    apiKey: () => timeOrderedId("key", clock().getTime()),
    event: () => timeOrderedId("evt", clock().getTime()),
    callbackSigningKey: () => timeOrderedId("csk", clock().getTime()),
    callbackDelivery: () => timeOrderedId("dlv", clock().getTime()),
  };
}

// The X-Request-Id a client may choose, echoed as given: 1 to 128 of these characters, the server's own ids
// (req_<24 hex>) among them. Anything else is replaced by the server's (http-face/request-id.ts); the OpenAPI
// document's header states the same pattern.
export const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
