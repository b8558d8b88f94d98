import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.js";

export const artifacts = pgTable(
  "artifacts",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    taskId: text("task_id"),
    kind: text("kind").notNull(),
    contentType: text("content_type").notNull(),
    byteSize: bigint("byte_size", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    storageKey: text("storage_key").notNull(),
    media: jsonb("media"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // Set when retention deleted the bytes; the row stays so its URL can answer 410 rather than 404.
    expiredAt: timestamp("expired_at", { withTimezone: true }),
  },
  (t) => [
    index("artifacts_tenant_idx").on(t.tenantId),
    index("artifacts_task_idx").on(t.taskId),
    // The retention sweep's scan: the oldest artifacts still stored, a range of this index per batch.
    index("artifacts_unexpired_created_idx").on(t.createdAt).where(sql`${t.expiredAt} is null`),
  ],
);

// A tenant's own retention of artifacts, in days, replacing ARTIFACT_RETENTION_DAYS for it.
export const tenantRetention = pgTable("tenant_retention", {
  tenantId: text("tenant_id")
    .primaryKey()
    .references(() => tenants.id),
  artifactDays: integer("artifact_days").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
