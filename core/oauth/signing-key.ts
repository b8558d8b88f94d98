import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT } from "jose";
import { z } from "zod";
import type { Scope } from "./scopes.js";

// The service's own issuer (its identifier is the MCP public URL) signs with one ES256 key kept as a private JWK
// (OAUTH_SIGNING_KEY): `svc token`'s development access tokens, and whatever the built-in authorization server
// signs. The MCP server publishes its public half. ES256 because every JOSE library and WebCrypto runtime verifies it.
export const signingKeySchema = z
  .object({
    kty: z.literal("EC"),
    crv: z.literal("P-256"),
    x: z.string().min(1),
    y: z.string().min(1),
    d: z.string().min(1),
    kid: z.string().min(1),
    alg: z.literal("ES256"),
  })
  .loose();

export type SigningKey = z.infer<typeof signingKeySchema>;

export async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return signingKeySchema.parse({ ...jwk, kid, alg: "ES256" });
}

// The JWKS the MCP server publishes: the public members only.
export function publicJwks(key: SigningKey) {
  return { keys: [{ kty: key.kty, crv: key.crv, x: key.x, y: key.y, kid: key.kid, alg: key.alg, use: "sig" }] };
}

export interface DevTokenRequest {
  issuer: string;
  audience: string;
  tenantId: string;
  subject: string;
  scopes: readonly Scope[];
  expiresInSeconds: number;
  now: Date;
}

export async function mintDevAccessToken(key: SigningKey, request: DevTokenRequest): Promise<string> {
  const issuedAt = Math.floor(request.now.getTime() / 1000);
  return new SignJWT({ scope: request.scopes.join(" "), tenant_id: request.tenantId })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "at+jwt" })
    .setIssuer(request.issuer)
    .setAudience(request.audience)
    .setSubject(request.subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + request.expiresInSeconds)
    .sign(await importJWK(key, key.alg));
}
