import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import { callbackSigningKeys } from "../db/schema/index.js";

export type SigningKeyRow = typeof callbackSigningKeys.$inferSelect;
export type NewSigningKeyRow = typeof callbackSigningKeys.$inferInsert;

export async function insertSigningKey(tx: Executor, row: NewSigningKeyRow): Promise<SigningKeyRow> {
  const rows = await tx.insert(callbackSigningKeys).values(row).returning();
  return rows[0] as SigningKeyRow;
}

// A tenant's key; another tenant's id finds nothing.
export async function findSigningKey(tx: Executor, tenantId: string, keyId: string): Promise<SigningKeyRow | null> {
  const rows = await tx
    .select()
    .from(callbackSigningKeys)
    .where(and(eq(callbackSigningKeys.id, keyId), eq(callbackSigningKeys.tenantId, tenantId)))
    .limit(1);
  return rows[0] ?? null;
}

// Newest first: ids are time-ordered, so `beforeId` continues a listing with one index range scan.
export async function listSigningKeys(
  tx: Executor,
  filter: { tenantId: string; beforeId?: string | undefined; limit: number },
): Promise<SigningKeyRow[]> {
  const conditions = [eq(callbackSigningKeys.tenantId, filter.tenantId)];
  if (filter.beforeId !== undefined) conditions.push(lt(callbackSigningKeys.id, filter.beforeId));
  return tx
    .select()
    .from(callbackSigningKeys)
    .where(and(...conditions))
    .orderBy(desc(callbackSigningKeys.id))
    .limit(filter.limit);
}

// The current secret becomes the previous one (signing until `previousExpiresAt`) and the new one takes its place,
// in one statement; an older previous secret is dropped. Null when the key is not an active key of the tenant.
export async function replaceSigningSecret(
  tx: Executor,
  tenantId: string,
  keyId: string,
  change: { secretCiphertext: string; previousExpiresAt: Date; rotatedAt: Date },
): Promise<SigningKeyRow | null> {
  const rows = await tx
    .update(callbackSigningKeys)
    .set({
      previousSecretCiphertext: sql`${callbackSigningKeys.secretCiphertext}`,
      previousSecretExpiresAt: change.previousExpiresAt,
      secretCiphertext: change.secretCiphertext,
      rotatedAt: change.rotatedAt,
    })
    .where(activeKey(tenantId, keyId))
    .returning();
  return rows[0] ?? null;
}

// Retiring erases both secrets: nothing is signed with a retired key again. Null when it was not active.
export async function markSigningKeyRetired(tx: Executor, tenantId: string, keyId: string, now: Date): Promise<SigningKeyRow | null> {
  const rows = await tx
    .update(callbackSigningKeys)
    .set({
      status: "retired",
      retiredAt: now,
      secretCiphertext: null,
      previousSecretCiphertext: null,
      previousSecretExpiresAt: null,
    })
    .where(activeKey(tenantId, keyId))
    .returning();
  return rows[0] ?? null;
}

// The guard of both changes to a key: this tenant's key, still active.
function activeKey(tenantId: string, keyId: string) {
  return and(eq(callbackSigningKeys.id, keyId), eq(callbackSigningKeys.tenantId, tenantId), eq(callbackSigningKeys.status, "active"));
}
