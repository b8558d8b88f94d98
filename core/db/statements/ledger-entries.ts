import { sql } from "drizzle-orm";
import type { Executor } from "../client.js";
import { bigintOfText, text, textOrNull, timestamp } from "./row-parsing.js";

export interface LedgerEntry {
  id: string;
  kind: string;
  amount: bigint;
  taskId: string | null;
  note: string | null;
  createdAt: Date;
}

const STATEMENT = "ledger-entries";

// A page of a tenant's credit ledger, newest first, from before the entry `beforeId` when it is given (a page's
// cursor). Ordered by the table's column, qualified: a bare `id` in ORDER BY would name the output column, the
// text cast, and sort "7" after "54".
export async function recentLedgerEntries(tx: Executor, tenantId: string, limit: number, beforeId?: string): Promise<LedgerEntry[]> {
  const rows = await tx.execute<Record<string, unknown>>(sql`
    select id::text, kind, amount::text, task_id, note, created_at from credit_ledger
     where tenant_id = ${tenantId} ${beforeId === undefined ? sql`` : sql`and credit_ledger.id < ${beforeId}::bigint`}
     order by credit_ledger.id desc limit ${limit}`);
  return rows.map((row) => ({
    id: text(row, "id", STATEMENT),
    kind: text(row, "kind", STATEMENT),
    amount: bigintOfText(row, "amount", STATEMENT),
    taskId: textOrNull(row, "task_id", STATEMENT),
    note: textOrNull(row, "note", STATEMENT),
    createdAt: timestamp(row, "created_at", STATEMENT),
  }));
}
