import { createHmac } from "node:crypto";

// SPEC.md: v1 = hex HMAC-SHA256 over "<unix_ts>.<raw body>", keyed with the signing secret.
export function signatureV1(secret: string, unixSeconds: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${unixSeconds}.`).update(rawBody).digest("hex");
}

// `t=<unix_ts>,v1=<hex>`; during a rotation's grace period one v1 per live secret (`secrets` newest first), so a
// receiver that checks every v1 matches with either secret. They are written oldest first, the newest last: a
// receiver that parses the header into a map keeps the last v1, and the secret that has to verify it is the new
// one, which the tenant installs as soon as the rotation hands it over (the old one stops signing when the grace
// period ends, at a time the tenant does not choose). docs/decisions.md, Callbacks.
export function signatureHeader(secrets: readonly string[], unixSeconds: number, rawBody: string): string {
  const oldestFirst = [...secrets].reverse();
  return [`t=${unixSeconds}`, ...oldestFirst.map((secret) => `v1=${signatureV1(secret, unixSeconds, rawBody)}`)].join(",");
}
