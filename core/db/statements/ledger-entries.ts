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

// A page of a tenant's credit ledger, newest first by created_at then id (the index credit_ledger_tenant_created_idx,
// read backwards), from after the entry `beforeId` when it is given (a page's cursor): the entry's own place in that
// order is looked up by its key, so a cursor carries only the id, to the microsecond a Date would lose. Ordered by
// the table's columns, qualified: a bare `id` in ORDER BY would name the output column, the text cast, and sort "7"
// after "54".
export async function recentLedgerEntries(tx: Executor, tenantId: string, limit: number, beforeId?: string): Promise<LedgerEntry[]> {
  const after =
    beforeId === undefined
      ? sql``
      : sql`and (credit_ledger.created_at, credit_ledger.id) <
                (select c.created_at, c.id from credit_ledger c where c.id = ${beforeId}::bigint and c.tenant_id = ${tenantId})`;
  const rows = await tx.execute<Record<string, unknown>>(sql`
    select id::text, kind, amount::text, task_id, note, created_at from credit_ledger
     where tenant_id = ${tenantId} ${after}
     order by credit_ledger.created_at desc, credit_ledger.id desc limit ${limit}`);
  return rows.map((row) => ({
    id: text(row, "id", STATEMENT),
    kind: text(row, "kind", STATEMENT),
    amount: bigintOfText(row, "amount", STATEMENT),
    taskId: textOrNull(row, "task_id", STATEMENT),
    note: textOrNull(row, "note", STATEMENT),
    createdAt: timestamp(row, "created_at", STATEMENT),
  }));
}
