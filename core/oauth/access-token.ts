import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { Config } from "../config.js";
import { ServiceError } from "../errors/index.js";
import { localIssuer, mcpResourceUrl } from "./resource-metadata.js";
import { publicJwks } from "./signing-key.js";
import { parseScopeClaim, type Scope } from "./scopes.js";

export interface AccessTokenClaims {
  issuer: string;
  subject: string;
  tenantId: string;
  scopes: Scope[];
  expiresAt: number;
}

export interface AccessTokenVerifier {
  verify(token: string, now: Date): Promise<AccessTokenClaims>;
}

// Asymmetric algorithms only: a shared-secret (HS*) token could be forged by anyone who can verify it.
const ALGORITHMS = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA", "Ed25519"];

interface TrustedIssuer {
  issuer: string;
  keys: JWTVerifyGetKey;
}

// The 401 of a token that is present but unusable; `details.reason` names what failed.
function refused(reason: string, message: string): ServiceError {
  return new ServiceError("unauthorized", message, { details: { reason, token: "access_token" } });
}

function refusalOf(error: unknown, audience: string): ServiceError {
  if (error instanceof errors.JWTExpired) return refused("expired", "The access token has expired; get a new one.");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return refused("audience", `The access token is not meant for this server; its audience must be ${audience}.`);
    return refused(`claim_${error.claim}`, `The access token's ${error.claim} claim is not acceptable: ${error.message}.`);
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWSSignatureVerificationFailed) {
    return refused("signature", "The access token's signature does not verify against the issuer's keys.");
  }
  return refused("invalid", `The access token is not valid: ${(error as Error).message}`);
}

// Verifies JWT access tokens from the configured issuer (keys fetched from its JWKS URL and cached by jose) and from
// the service's own issuer (`svc token`). The audience must be this server's MCP URL, so a token minted for another
// resource cannot be replayed here.
export function createAccessTokenVerifier(config: Config): AccessTokenVerifier {
  const trusted: TrustedIssuer[] = [];
  if (config.oauth.issuer && config.oauth.jwksUrl) {
    trusted.push({ issuer: config.oauth.issuer, keys: createRemoteJWKSet(new URL(config.oauth.jwksUrl)) });
  }
  if (config.oauth.signingKey) {
    trusted.push({ issuer: localIssuer(config), keys: createLocalJWKSet(publicJwks(config.oauth.signingKey)) });
  }
  const audience = mcpResourceUrl(config);

  return {
    async verify(token, now) {
      let claimedIssuer: unknown;
      try {
        claimedIssuer = decodeJwt(token).iss;
      } catch {
        throw refused("malformed", "The bearer token is neither an API key (sk_…) nor a JWT access token.");
      }
      const source = trusted.find((t) => t.issuer === claimedIssuer);
      if (!source) throw refused("issuer", `Access tokens from issuer ${String(claimedIssuer)} are not accepted here.`);
      let payload;
      try {
        ({ payload } = await jwtVerify(token, source.keys, {
          issuer: source.issuer,
          audience,
          algorithms: ALGORITHMS,
          requiredClaims: ["exp", "sub"],
          currentDate: now,
        }));
      } catch (error) {
        // An unreachable JWKS is our outage, not a bad token: retryable, not 401.
        if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
          throw new ServiceError("internal_error", `The issuer's keys could not be fetched: ${(error as Error).message}`);
        }
        throw refusalOf(error, audience);
      }
      if (typeof payload.tenant_id !== "string" || payload.tenant_id === "") {
        throw refused("tenant", "The access token names no tenant (claim tenant_id).");
      }
      return {
        issuer: source.issuer,
        subject: payload.sub as string,
        tenantId: payload.tenant_id,
        scopes: parseScopeClaim(payload.scope),
        expiresAt: payload.exp as number,
      };
    },
  };
}
