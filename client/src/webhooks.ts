import { WebhookVerificationError } from "./errors.js";
import type { CallbackEvent } from "./types.js";

// SPEC.md, Events: `X-Signature: t=<unix_ts>,v1=<hex>`, v1 the hex HMAC-SHA256 of "<unix_ts>.<raw body>" keyed
// with the signing secret (the whole whsec_… string, UTF-8); timestamps more than 300 seconds from now are
// refused. During a key rotation's grace period the header carries one v1 per live secret (docs/decisions.md,
// Callbacks): any one matching is enough, and a receiver may likewise hold several secrets of its own.
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  toleranceSeconds?: number;
  // Unix seconds taken as now; the clock by default.
  nowSeconds?: number;
}

const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found.join(",") : found;
}

function hexBytes(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})+$/i.test(hex)) return null;
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

// Every byte is compared whatever the earlier ones were, so the time taken says nothing of where a guess differs.
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

async function hmacSha256(secret: string, message: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
}

function parseSignature(value: string): { timestamp: number; signatures: Uint8Array[] } {
  let timestamp: number | undefined;
  const signatures: Uint8Array[] = [];
  for (const field of value.split(",")) {
    const [name, content = ""] = field.trim().split("=", 2) as [string, string?];
    if (name === "t" && /^\d+$/.test(content)) timestamp = Number(content);
    else if (name === "v1") {
      const bytes = hexBytes(content);
      if (bytes) signatures.push(bytes);
    }
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError("malformed_signature", "X-Signature is not t=<unix seconds>,v1=<hex>[,v1=<hex>…]");
  }
  return { timestamp, signatures };
}

// Checks a callback delivery before anything trusts it and answers its event. `rawBody` is the body exactly as
// received (bytes, or the string they decode to), never a re-serialized object. `secret` is the key's whsec_…
// secret, or several (a receiver between two of its own secrets). Throws WebhookVerificationError.
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<CallbackEvent> {
  const value = header(headers, "x-signature");
  if (!value) throw new WebhookVerificationError("missing_signature", "no X-Signature header: the delivery is unsigned");
  const { timestamp, signatures } = parseSignature(value);
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError("timestamp_out_of_tolerance", `the signature's timestamp ${timestamp} is more than ${tolerance} seconds from now (${now})`);
  }
  const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody instanceof Uint8Array ? rawBody : new Uint8Array(rawBody);
  const prefix = encoder.encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  let matched = false;
  for (const candidate of typeof secret === "string" ? [secret] : secret) {
    const expected = await hmacSha256(candidate, signed);
    for (const signature of signatures) matched = constantTimeEqual(expected, signature) || matched;
  }
  if (!matched) throw new WebhookVerificationError("signature_mismatch", "no v1 signature matches the body with the given secret");
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body)) as CallbackEvent;
  } catch {
    throw new WebhookVerificationError("malformed_body", "the signed body is not JSON");
  }
}
