import { sql } from "drizzle-orm";
import { bigint, check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.js";

// One counter per rate-limit bucket (an API key, an access token's subject, a tenant) for its current window,
// which opened with the first request after the previous one ended. The migration creates it UNLOGGED: counters
// need no crash safety, and without WAL the per-request update commits without waiting for a flush.
export const rateLimitCounters = pgTable("rate_limit_counters", {
  bucket: text("bucket").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
});

// A tenant's own budgets, requests per window, and its upload quota (bytes and number of uploaded assets kept);
// a null column keeps the default.
export const tenantRateLimits = pgTable(
  "tenant_rate_limits",
  {
    tenantId: text("tenant_id")
      .primaryKey()
      .references(() => tenants.id),
    perKey: integer("per_key"),
    perTenant: integer("per_tenant"),
    uploadMaxBytes: bigint("upload_max_bytes", { mode: "number" }),
    uploadMaxCount: integer("upload_max_count"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("tenant_rate_limits_per_key_check", sql`${t.perKey} is null or ${t.perKey} > 0`),
    check("tenant_rate_limits_per_tenant_check", sql`${t.perTenant} is null or ${t.perTenant} > 0`),
    check("tenant_rate_limits_upload_max_bytes_check", sql`${t.uploadMaxBytes} is null or ${t.uploadMaxBytes} >= 0`),
    check("tenant_rate_limits_upload_max_count_check", sql`${t.uploadMaxCount} is null or ${t.uploadMaxCount} >= 0`),
  ],
);
