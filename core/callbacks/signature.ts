import { createHmac, randomBytes } from "node:crypto";

// A signing secret as handed to the tenant: the whole string, UTF-8, is the HMAC key.
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

// SPEC.md: v1 = hex HMAC-SHA256 over "<unix_ts>.<raw body>", keyed with the signing secret.
export function signatureV1(secret: string, unixSeconds: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${unixSeconds}.`).update(rawBody).digest("hex");
}

// `t=<unix_ts>,v1=<hex>`; during a rotation's grace period one v1 per live secret, the newest first, so a
// receiver holding either secret finds a match.
export function signatureHeader(secrets: readonly string[], unixSeconds: number, rawBody: string): string {
  return [`t=${unixSeconds}`, ...secrets.map((secret) => `v1=${signatureV1(secret, unixSeconds, rawBody)}`)].join(",");
}
