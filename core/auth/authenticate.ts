import { eq } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { retryOnLostConnection } from "../db/lost-connection.js";
import { apiKeys, tenants } from "../db/schema/index.js";
import { ServiceError } from "../errors/index.js";
import { hashApiKey, parseApiKey } from "./api-key-format.js";
import type { Area } from "./areas.js";
import type { Principal, PrincipalCache } from "./principal-cache.js";

export type { Principal } from "./principal-cache.js";

export interface Authenticator {
  db: Db;
  principals: PrincipalCache;
  config: { region: string };
}

// A read, so asked again when its connection was lost: the lost connection that makes every process forget the
// principals it kept (principal-cache.ts) is what sends the next requests here, all at once.
async function loadPrincipal(db: Db, keyHash: string): Promise<Principal> {
  const rows = await retryOnLostConnection(() =>
    db
      .select({
        apiKeyId: apiKeys.id,
        keyStatus: apiKeys.status,
        areas: apiKeys.areas,
        tenantId: tenants.id,
        tenantStatus: tenants.status,
      })
      .from(apiKeys)
      .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
      .where(eq(apiKeys.keyHash, keyHash))
      .limit(1),
  );
  const row = rows[0];
  if (!row || row.keyStatus !== "active") {
    throw new ServiceError("invalid_api_key", "The API key is unknown or has been revoked.");
  }
  if (row.tenantStatus !== "active") {
    throw new ServiceError("tenant_disabled", "The account that owns this API key is suspended.");
  }
  return { tenantId: row.tenantId, apiKeyId: row.apiKeyId, areas: (row.areas as Area[] | null) ?? null };
}

// Resolves an Authorization header to a principal, with SPEC.md's order of refusals: malformed (401
// unauthorized), another region (400), unknown or revoked (401 invalid_api_key), suspended tenant (403). Accepted
// keys are remembered by the process (core/auth/principal-cache.ts) until a key or tenant changes.
export async function authenticate(core: Authenticator, authorization: string | undefined): Promise<Principal> {
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  const token = match?.[1];
  const parsed = token ? parseApiKey(token) : null;
  if (!token || !parsed) {
    throw new ServiceError("unauthorized", "Send `Authorization: Bearer <API key>` with a key of the form sk_<region>_….");
  }
  if (parsed.region !== core.config.region) {
    throw new ServiceError(
      "api_key_region_mismatch",
      `This API key belongs to region "${parsed.region}"; this endpoint serves region "${core.config.region}".`,
      { details: { key_region: parsed.region, endpoint_region: core.config.region } },
    );
  }
  const keyHash = hashApiKey(token);
  return core.principals.lookup(keyHash, () => loadPrincipal(core.db, keyHash));
}

export function requireArea(principal: Principal, area: Area): void {
  if (principal.areas && !principal.areas.includes(area)) {
    throw new ServiceError("forbidden", `This API key may not use the ${area} area.`, {
      details: { required_area: area, key_areas: principal.areas },
    });
  }
}
