import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { apiKeys, tenants } from "../db/schema/index.js";
import { grantCredits } from "../credits/ledger.js";
import { ServiceError } from "../errors/index.js";
import type { IdGenerator } from "../ids.js";
import { displayPrefix, generateApiKey, hashApiKey } from "./api-key-format.js";
import type { Area } from "./areas.js";
import { changeCredentials } from "./principal-cache.js";

// Operator actions behind the `svc` CLI and the first-start bootstrap. They are not reachable over HTTP.

export interface CreatedApiKey {
  id: string;
  tenantId: string;
  key: string;
  displayPrefix: string;
  region: string;
  areas: Area[] | null;
}

export async function createTenant(db: Db, ids: IdGenerator, name: string, initialCredits: bigint) {
  const id = ids.tenant();
  await db.transaction(async (tx) => {
    await tx.insert(tenants).values({ id, name });
    await grantCredits(tx, id, initialCredits, "initial grant");
  });
  return { id, name };
}

export async function createApiKey(
  db: Db,
  ids: IdGenerator,
  region: string,
  tenantId: string,
  options: { name?: string; areas?: Area[] | null } = {},
): Promise<CreatedApiKey> {
  await requireTenant(db, tenantId);
  const key = generateApiKey(region);
  const id = ids.apiKey();
  const areas = options.areas && options.areas.length > 0 ? options.areas : null;
  await db.insert(apiKeys).values({
    id,
    tenantId,
    name: options.name ?? "",
    keyHash: hashApiKey(key),
    displayPrefix: displayPrefix(key),
    region,
    areas,
  });
  return { id, tenantId, key, displayPrefix: displayPrefix(key), region, areas };
}

// Status changes of keys and tenants tell every process that remembers accepted keys (core/auth/principal-cache.ts).
export async function revokeApiKey(db: Db, apiKeyId: string): Promise<boolean> {
  const rows = await changeCredentials(db, (tx) =>
    tx
      .update(apiKeys)
      .set({ status: "revoked", revokedAt: new Date() })
      .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.status, "active")))
      .returning({ id: apiKeys.id }),
  );
  return rows.length > 0;
}

export async function setTenantStatus(db: Db, tenantId: string, status: "active" | "disabled"): Promise<void> {
  const rows = await changeCredentials(db, (tx) =>
    tx
      .update(tenants)
      .set({ status, disabledAt: status === "disabled" ? new Date() : null })
      .where(eq(tenants.id, tenantId))
      .returning({ id: tenants.id }),
  );
  if (rows.length === 0) throw new ServiceError("not_found", `No tenant ${tenantId}.`);
}

export async function grantTenantCredits(db: Db, tenantId: string, amount: bigint, note: string): Promise<void> {
  await requireTenant(db, tenantId);
  await db.transaction((tx) => grantCredits(tx, tenantId, amount, note));
}

export async function listTenants(db: Db) {
  return db
    .select({
      id: tenants.id,
      name: tenants.name,
      status: tenants.status,
      createdAt: tenants.createdAt,
      keys: sql<number>`(select count(*)::int from api_keys k where k.tenant_id = tenants.id and k.status = 'active')`,
    })
    .from(tenants)
    .orderBy(tenants.createdAt);
}

export async function getTenant(db: Db, tenantId: string) {
  const rows = await db
    .select({ id: tenants.id, name: tenants.name, status: tenants.status, createdAt: tenants.createdAt })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  if (!rows[0]) throw new ServiceError("not_found", `No tenant ${tenantId}.`);
  return rows[0];
}

// Keys as an operator sees them: never the key itself (only its hash is stored), its display prefix instead.
export async function listApiKeys(db: Db, tenantId?: string) {
  if (tenantId !== undefined) await requireTenant(db, tenantId);
  return db
    .select({
      id: apiKeys.id,
      tenantId: apiKeys.tenantId,
      name: apiKeys.name,
      displayPrefix: apiKeys.displayPrefix,
      areas: apiKeys.areas,
      status: apiKeys.status,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(tenantId === undefined ? undefined : eq(apiKeys.tenantId, tenantId))
    .orderBy(apiKeys.createdAt);
}

export async function countTenants(db: Db): Promise<number> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(tenants);
  return rows[0]?.n ?? 0;
}

async function requireTenant(db: Db, tenantId: string): Promise<void> {
  const rows = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (rows.length === 0) throw new ServiceError("not_found", `No tenant ${tenantId}.`);
}
