import { and, eq } from "drizzle-orm";
import type { Area } from "../../auth/areas.js";
import { authenticate, type Authenticator } from "../../auth/authenticate.js";
import type { Db } from "../../db/client.js";
import { apiKeys, tenants } from "../../db/schema/index.js";
import { scopesOfAreas, type Scope } from "../scopes.js";

// The built-in authorization server's accounts are API keys: a person signs in by pasting a key of their tenant,
// and what they grant acts for that tenant with at most the key's areas. The account id is the key's id, never
// the key.
export interface KeyAccount {
  keyId: string;
  keyName: string;
  tenantId: string;
  tenantName: string;
  // The scopes the key's areas hold: the most a grant made with it may give.
  scopes: Scope[];
}

// A key as typed on the sign-in page, with REST's checks and refusals (malformed, another region, unknown or
// revoked, tenant suspended).
export async function signInWithApiKey(core: Authenticator, key: string): Promise<KeyAccount> {
  const principal = await authenticate(core, `Bearer ${key}`);
  const account = await findKeyAccount(core.db, principal.apiKeyId);
  if (!account) throw new Error(`key ${principal.apiKeyId} vanished while signing in`);
  return account;
}

// The account behind a key id while the key is active and its tenant is too; undefined otherwise, which makes
// oidc-provider refuse the code or refresh token that names it.
export async function findKeyAccount(db: Db, keyId: string): Promise<KeyAccount | undefined> {
  const rows = await db
    .select({ keyName: apiKeys.name, areas: apiKeys.areas, tenantId: tenants.id, tenantName: tenants.name })
    .from(apiKeys)
    .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.status, "active"), eq(tenants.status, "active")))
    .limit(1);
  const row = rows[0];
  if (!row) return undefined;
  return {
    keyId,
    keyName: row.keyName,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    scopes: scopesOfAreas((row.areas as Area[] | null) ?? null),
  };
}
