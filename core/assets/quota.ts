import { and, count, eq, isNull, sql, sum } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import { artifacts, tenantRateLimits } from "../db/schema/index.js";
import { ServiceError } from "../errors/index.js";

// What a tenant may keep in uploaded assets, settable per tenant beside its rate limits (`svc tenant limits`,
// core's setTenantRateLimits); these defaults apply where the tenant has none of its own.
export interface UploadQuota {
  maxBytes: number;
  maxCount: number;
}

export const DEFAULT_UPLOAD_QUOTA: UploadQuota = { maxBytes: 10 * 1024 ** 3, maxCount: 10_000 };

async function quotaOf(tx: Executor, tenantId: string): Promise<UploadQuota> {
  const rows = await tx
    .select({ maxBytes: tenantRateLimits.uploadMaxBytes, maxCount: tenantRateLimits.uploadMaxCount })
    .from(tenantRateLimits)
    .where(eq(tenantRateLimits.tenantId, tenantId))
    .limit(1);
  return { maxBytes: rows[0]?.maxBytes ?? DEFAULT_UPLOAD_QUOTA.maxBytes, maxCount: rows[0]?.maxCount ?? DEFAULT_UPLOAD_QUOTA.maxCount };
}

// Inside the upload's transaction: one upload per tenant at a time gets past this check (an advisory lock held to
// commit), so concurrent uploads cannot overshoot the quota together.
export async function reserveUpload(tx: Executor, tenantId: string, byteSize: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`uploads:${tenantId}`}, 0))`);
  const quota = await quotaOf(tx, tenantId);
  const rows = await tx
    .select({ count: count(), bytes: sum(artifacts.byteSize) })
    .from(artifacts)
    // An upload whose bytes retention deleted no longer takes space.
    .where(and(eq(artifacts.tenantId, tenantId), sql`${artifacts.media}->>'source' = 'upload'`, isNull(artifacts.expiredAt)));
  const used = { count: rows[0]?.count ?? 0, bytes: Number(rows[0]?.bytes ?? 0) };
  const over =
    used.count + 1 > quota.maxCount
      ? { quota: "upload_count", limit: quota.maxCount, used: used.count, what: `${quota.maxCount} uploaded assets` }
      : used.bytes + byteSize > quota.maxBytes
        ? { quota: "upload_bytes", limit: quota.maxBytes, used: used.bytes, what: `${quota.maxBytes} bytes of uploaded assets` }
        : null;
  if (over) {
    throw new ServiceError("media_too_large", `This upload would exceed the tenant's upload quota of ${over.what}.`, {
      param: "/content_base64",
      details: { quota: over.quota, limit: over.limit, used: over.used, requested_bytes: byteSize },
    });
  }
}
