import { and, eq } from "drizzle-orm";
import type { Area } from "../../auth/areas.js";
import type { Db } from "../../db/client.js";
import { apiKeys, oauthRecords, tenants } from "../../db/schema/index.js";
import { ServiceError } from "../../errors/index.js";
import { parseScopeClaim, scopesOfAreas, type Scope } from "../scopes.js";
import { storedId } from "./storage.js";

export interface IssuedAccessToken {
  tenantId: string;
  // The API key the person signed in with.
  keyId: string;
  scopes: Scope[];
  // Unix seconds.
  expiresAt: number;
}

function refused(reason: string, message: string): ServiceError {
  return new ServiceError("unauthorized", message, { details: { reason, token: "access_token" } });
}

// An access token of the built-in authorization server, read where oidc-provider stored it, on every request: a
// token ends the moment its grant is revoked (by `svc oauth`, a refresh token used twice, or the client), its key
// is revoked or its tenant suspended. It holds what was granted, cut to what its key's areas allow now.
export async function findIssuedAccessToken(db: Db, token: string, audience: string, now: Date): Promise<IssuedAccessToken> {
  const rows = await db
    .select({
      payload: oauthRecords.payload,
      keyId: apiKeys.id,
      keyStatus: apiKeys.status,
      areas: apiKeys.areas,
      tenantId: tenants.id,
      tenantStatus: tenants.status,
    })
    .from(oauthRecords)
    .innerJoin(apiKeys, eq(apiKeys.id, oauthRecords.accountId))
    .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
    .where(and(eq(oauthRecords.kind, "AccessToken"), eq(oauthRecords.id, storedId("AccessToken", token))))
    .limit(1);
  const row = rows[0];
  if (!row) throw refused("unknown", "The access token is unknown or has been revoked; authorize again.");
  const payload = row.payload as { exp?: unknown; aud?: unknown; scope?: unknown };
  const expiresAt = typeof payload.exp === "number" ? payload.exp : 0;
  if (expiresAt <= Math.floor(now.getTime() / 1000)) throw refused("expired", "The access token has expired; get a new one.");
  if (payload.aud !== audience) throw refused("audience", `The access token is not meant for this server; its audience must be ${audience}.`);
  if (row.keyStatus !== "active") throw refused("revoked", "The API key this access token was granted with has been revoked; authorize again.");
  if (row.tenantStatus !== "active") throw new ServiceError("tenant_disabled", "The account this access token acts for is suspended.");
  const allowed = scopesOfAreas((row.areas as Area[] | null) ?? null);
  return {
    tenantId: row.tenantId,
    keyId: row.keyId,
    scopes: parseScopeClaim(payload.scope).filter((scope) => allowed.includes(scope)),
    expiresAt,
  };
}
