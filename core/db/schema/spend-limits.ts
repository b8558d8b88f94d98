import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.js";

// A spend limit: at most `limit` micro-credits held per calendar period (UTC day or month) by one API key
// (scope `key`, owner the key's id) or by a whole tenant (scope `tenant`, owner the tenant's id).
export const spendLimits = pgTable(
  "spend_limits",
  {
    scope: text("scope").notNull(),
    owner: text("owner").notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    period: text("period").notNull(),
    limit: bigint("limit", { mode: "bigint" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.owner] }),
    check("spend_limits_scope_check", sql`${t.scope} in ('key', 'tenant')`),
    check("spend_limits_period_check", sql`${t.period} in ('day', 'month')`),
    check("spend_limits_limit_check", sql`${t.limit} >= 0`),
    index("spend_limits_tenant_idx").on(t.tenantId),
  ],
);

// What a limited key or tenant has held in one period, with the limit it was held under. The check refuses an
// admission's write that would pass the limit, as credit_accounts' available >= 0 refuses a short balance, so
// concurrent admissions never overshoot whatever they read before writing.
export const spendCounters = pgTable(
  "spend_counters",
  {
    scope: text("scope").notNull(),
    owner: text("owner").notNull(),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    spent: bigint("spent", { mode: "bigint" }).notNull(),
    limit: bigint("limit", { mode: "bigint" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.owner, t.periodStart] }),
    check("spend_counters_within_limit_check", sql`${t.spent} <= ${t.limit}`),
    check("spend_counters_spent_check", sql`${t.spent} >= 0`),
  ],
);
