import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.js";

// Cloned voices, one tenant's each. A clone task creates its voice `pending`; success makes it `active` (usable
// in speech); DELETE makes it `deleted`, kept so the creating task and past speech tasks still point somewhere.
export const voices = pgTable(
  "voices",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    displayName: text("display_name").notNull(),
    language: text("language"),
    // The speech models this voice resolves on.
    models: text("models").array().notNull(),
    status: text("status").notNull(),
    taskId: text("task_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    check("voices_status_check", sql`${t.status} in ('pending', 'active', 'deleted')`),
    index("voices_tenant_id_idx").on(t.tenantId, t.id),
    index("voices_task_idx").on(t.taskId),
  ],
);
