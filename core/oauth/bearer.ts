import { eq } from "drizzle-orm";
import { authenticate, type Authenticator } from "../auth/authenticate.js";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import { tenants } from "../db/schema/index.js";
import { ServiceError } from "../errors/index.js";
import type { AccessTokenVerifier } from "./access-token.js";
import { mcpResourceUrl } from "./resource-metadata.js";
import { scopesOfAreas, type Scope } from "./scopes.js";
import { findIssuedAccessToken } from "./server/issued-access-tokens.js";

// What a credential may do on the MCP surface: a tenant and the scopes held, whichever kind of credential it was.
export interface Grant {
  tenantId: string;
  scopes: readonly Scope[];
  credential: "api_key" | "access_token";
  // The API key's id, or the token's subject (for the built-in authorization server's tokens, the key signed in with).
  subject: string;
  // Unix seconds; API keys do not expire.
  expiresAt: number | null;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
// A JWT is three base64url parts; the built-in authorization server's tokens are opaque, one part.
const JWT_SHAPE = /^[\w-]+\.[\w-]*\.[\w-]*$/;

// An API key (sk_…) keeps REST's rules and order of refusals; a JWT must be an access token for this server, from a
// trusted issuer, naming an active tenant; anything else, while the built-in authorization server runs, must be
// one of its access tokens.
export async function authenticateBearer(
  core: Authenticator & { clock: Clock; config: Pick<Config, "oauth" | "mcp"> },
  verifier: AccessTokenVerifier,
  authorization: string | undefined,
): Promise<Grant> {
  const token = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  if (!token) throw new ServiceError("unauthorized", "Send `Authorization: Bearer <API key or access token>`.");
  if (token.startsWith("sk_")) {
    const principal = await authenticate(core, authorization);
    return {
      tenantId: principal.tenantId,
      scopes: scopesOfAreas(principal.areas),
      credential: "api_key",
      subject: principal.apiKeyId,
      expiresAt: null,
    };
  }
  if (core.config.oauth.server && !JWT_SHAPE.test(token)) {
    const issued = await findIssuedAccessToken(core.db, token, mcpResourceUrl(core.config), core.clock());
    return { tenantId: issued.tenantId, scopes: issued.scopes, credential: "access_token", subject: issued.keyId, expiresAt: issued.expiresAt };
  }
  const claims = await verifier.verify(token, core.clock());
  const rows = await core.db.select({ status: tenants.status }).from(tenants).where(eq(tenants.id, claims.tenantId)).limit(1);
  const tenant = rows[0];
  if (!tenant) {
    throw new ServiceError("unauthorized", "The access token names an unknown tenant.", { details: { reason: "tenant", token: "access_token" } });
  }
  if (tenant.status !== "active") throw new ServiceError("tenant_disabled", "The account this access token acts for is suspended.");
  return { tenantId: claims.tenantId, scopes: claims.scopes, credential: "access_token", subject: claims.subject, expiresAt: claims.expiresAt };
}
