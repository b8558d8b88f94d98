import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT } from "jose";
import { signingKeySchema, type SigningKey } from "../config.js";
import type { Scope } from "./scopes.js";

// The ES256 key the service's own issuer signs with (OAUTH_SIGNING_KEY; its shape is read with the settings,
// core/config.ts): made here for development, published as a JWKS, and used to mint development access tokens.

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
