import { z } from "zod";
import type { Db } from "../db/client.js";
import { decodeCursor, pageOf, parseListQuery, type ListParameters } from "../contracts/pagination.js";
import { readBalance } from "../db/statements/read-balance.js";
import { recentLedgerEntries } from "../db/statements/ledger-entries.js";
import { formatCredits } from "./money.js";
import { tenantSpendLimits } from "./spend-limits.js";

// GET /v1/credits' query: the ledger is paged like every list, but its first page is the 50 entries the answer
// carried before it had pages, so a caller that sends no query reads what it always read.
export const creditsQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50).describe("Ledger entries per page, 1 to 100 (default 50)."),
    cursor: z.string().optional().describe("The next_cursor of the previous page, unchanged: older entries."),
  })
  .strict();

// The cursor names the last entry of the previous page, {v: 1, before: id}; the next page is the entries older than it
// (by created_at, then id: core/db/statements/ledger-entries.ts).
function ledgerPosition(value: Record<string, unknown>): string | undefined {
  return value.v === 1 && typeof value.before === "string" && /^[1-9]\d{0,18}$/.test(value.before) ? value.before : undefined;
}

// GET /v1/credits: the caller's balance and a page of its ledger, newest first.
export async function creditBalanceView(core: { db: Db; clock: () => Date }, tenantId: string, query: Record<string, unknown> = {}, from: ListParameters = "query") {
  const { limit, cursor } = parseListQuery(creditsQuerySchema, query);
  const beforeId = cursor === undefined ? undefined : decodeCursor(cursor, ledgerPosition, from);
  const [balance, entries, spendLimits] = await Promise.all([
    readBalance(core.db, tenantId),
    recentLedgerEntries(core.db, tenantId, limit + 1, beforeId),
    tenantSpendLimits(core.db, tenantId, core.clock()),
  ]);
  const page = pageOf(
    entries,
    limit,
    (last) => ({ v: 1, before: last.id }),
    (e) => ({
      id: e.id,
      kind: e.kind,
      amount_credits: formatCredits(e.amount),
      task_id: e.taskId,
      note: e.note,
      created_at: e.createdAt.toISOString(),
    }),
  );
  return {
    object: "credit_balance" as const,
    available_credits: formatCredits(balance.available),
    held_credits: formatCredits(balance.held),
    spent_credits: formatCredits(balance.spent),
    granted_credits: formatCredits(balance.granted),
    spend_limits: spendLimits,
    entries: page.data,
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}
