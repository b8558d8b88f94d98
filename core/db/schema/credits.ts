import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.js";

// Amounts are integer micro-credits. The checks make a negative balance impossible whatever the code does.
export const creditAccounts = pgTable(
  "credit_accounts",
  {
    tenantId: text("tenant_id")
      .primaryKey()
      .references(() => tenants.id),
    available: bigint("available", { mode: "bigint" }).notNull().default(sql`0`),
    held: bigint("held", { mode: "bigint" }).notNull().default(sql`0`),
    spent: bigint("spent", { mode: "bigint" }).notNull().default(sql`0`),
    granted: bigint("granted", { mode: "bigint" }).notNull().default(sql`0`),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("credit_accounts_available_check", sql`${t.available} >= 0`),
    check("credit_accounts_held_check", sql`${t.held} >= 0`),
    check("credit_accounts_spent_check", sql`${t.spent} >= 0`),
    check("credit_accounts_invariant_check", sql`${t.granted} = ${t.available} + ${t.held} + ${t.spent}`),
  ],
);

export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    taskId: text("task_id"),
    // The API key a hold was admitted under, so a refund gives its spend back to that key's limit.
    apiKeyId: text("api_key_id"),
    kind: text("kind").notNull(),
    amount: bigint("amount", { mode: "bigint" }).notNull(),
    note: text("note"),
    // The statement's clock, not the transaction's start (now()): a transaction begun earlier but writing later
    // would otherwise stamp a newer entry (a higher id) with an older time.
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    check("credit_ledger_kind_check", sql`${t.kind} in ('grant', 'hold', 'capture', 'release', 'charge')`),
    check("credit_ledger_amount_check", sql`${t.amount} >= 0`),
    // GET /v1/credits: a tenant's entries newest first by created_at, then id (read backwards), one range scan per page.
    index("credit_ledger_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    // Each task is held at most once and settled (captured, released or charged) at most once.
    uniqueIndex("credit_ledger_task_hold_once").on(t.taskId).where(sql`${t.kind} = 'hold'`),
    uniqueIndex("credit_ledger_task_settle_once")
      .on(t.taskId)
      .where(sql`${t.kind} in ('capture', 'release', 'charge')`),
  ],
);
