import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { retryOnLostConnection } from "../db/lost-connection.js";
import { tenantRateLimits, tenants } from "../db/schema/index.js";
import { ServiceError } from "../errors/index.js";
import { isValidBudget } from "./decision.js";
import type { RateLimitDefaults, TenantBudgets } from "./counter.js";
import { DEFAULT_UPLOAD_QUOTA, type UploadQuota } from "../assets/quota.js";

// A tenant's budgets, requests per window: per credential (each API key, each access-token subject) and for
// the whole tenant. `custom` says which of them the tenant has of its own rather than the configured default.
// The upload quota rides along: set and shown by the same command, the tenant's own value or the default.
export interface TenantRateLimits {
  tenantId: string;
  perKey: number;
  perTenant: number;
  windowSeconds: number;
  upload: UploadQuota;
  custom: { perKey: boolean; perTenant: boolean; uploadMaxBytes: boolean; uploadMaxCount: boolean };
}

// A budget to set: a number of requests per window, null to go back to the default, undefined to leave it.
export interface RateLimitChange {
  perKey?: number | null;
  perTenant?: number | null;
  // Bytes and number of uploaded assets a tenant may keep (0 forbids uploads).
  uploadMaxBytes?: number | null;
  uploadMaxCount?: number | null;
}

// The budgets that apply: each the tenant's own where it has one, else the configured default.
export function budgetsOf(defaults: RateLimitDefaults, own: { perKey: number | null; perTenant: number | null } | undefined): TenantBudgets {
  return { perKey: own?.perKey ?? defaults.perKey, perTenant: own?.perTenant ?? defaults.perTenant };
}

// The budgets that apply to a tenant's requests, for a store that keeps no tenant data. A read, so asked again
// when its connection was lost.
export async function tenantBudgets(db: Db, defaults: RateLimitDefaults, tenantId: string): Promise<TenantBudgets> {
  const rows = await retryOnLostConnection(() =>
    db
      .select({ perKey: tenantRateLimits.perKey, perTenant: tenantRateLimits.perTenant })
      .from(tenantRateLimits)
      .where(eq(tenantRateLimits.tenantId, tenantId))
      .limit(1),
  );
  return budgetsOf(defaults, rows[0]);
}

export async function readTenantRateLimits(db: Db, defaults: RateLimitDefaults, tenantId: string): Promise<TenantRateLimits> {
  const rows = await db
    .select({
      id: tenants.id,
      perKey: tenantRateLimits.perKey,
      perTenant: tenantRateLimits.perTenant,
      uploadMaxBytes: tenantRateLimits.uploadMaxBytes,
      uploadMaxCount: tenantRateLimits.uploadMaxCount,
    })
    .from(tenants)
    .leftJoin(tenantRateLimits, eq(tenantRateLimits.tenantId, tenants.id))
    .where(eq(tenants.id, tenantId))
    .limit(1);
  const row = rows[0];
  if (!row) throw new ServiceError("not_found", `No tenant ${tenantId}.`);
  return {
    tenantId,
    ...budgetsOf(defaults, row),
    windowSeconds: defaults.windowSeconds,
    upload: {
      maxBytes: row.uploadMaxBytes ?? DEFAULT_UPLOAD_QUOTA.maxBytes,
      maxCount: row.uploadMaxCount ?? DEFAULT_UPLOAD_QUOTA.maxCount,
    },
    custom: {
      perKey: row.perKey !== null,
      perTenant: row.perTenant !== null,
      uploadMaxBytes: row.uploadMaxBytes !== null,
      uploadMaxCount: row.uploadMaxCount !== null,
    },
  };
}

// Takes effect within RATE_LIMIT_SYNC_MS (Postgres store) or TENANT_LIMITS_CACHE_MS (Redis store) on every process.
export async function setTenantRateLimits(
  db: Db,
  defaults: RateLimitDefaults,
  tenantId: string,
  change: RateLimitChange,
): Promise<TenantRateLimits> {
  for (const name of ["perKey", "perTenant"] as const) {
    const value = change[name];
    if (value !== undefined && value !== null && !isValidBudget(value)) {
      throw new ServiceError("invalid_request", `${name} must be a positive whole number of requests per window.`);
    }
  }
  for (const name of ["uploadMaxBytes", "uploadMaxCount"] as const) {
    const value = change[name];
    const max = name === "uploadMaxBytes" ? Number.MAX_SAFE_INTEGER : 2_147_483_647;
    if (value !== undefined && value !== null && !(Number.isInteger(value) && value >= 0 && value <= max)) {
      throw new ServiceError("invalid_request", `${name} must be a whole number from 0 to ${max}.`);
    }
  }
  await readTenantRateLimits(db, defaults, tenantId);
  const values = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as RateLimitChange;
  if (Object.keys(values).length > 0) {
    await db
      .insert(tenantRateLimits)
      .values({ tenantId, ...values })
      .onConflictDoUpdate({ target: tenantRateLimits.tenantId, set: { ...values, updatedAt: sql`now()` } });
  }
  return readTenantRateLimits(db, defaults, tenantId);
}
