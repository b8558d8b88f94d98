import type { Db } from "../db/client.js";
import { readBalance, recentLedgerEntries } from "./ledger.js";
import { formatCredits } from "./money.js";

// GET /v1/credits: the caller's balance and its most recent ledger entries.
export async function creditBalanceView(core: { db: Db }, tenantId: string) {
  const [balance, entries] = await Promise.all([readBalance(core.db, tenantId), recentLedgerEntries(core.db, tenantId, 50)]);
  return {
    object: "credit_balance" as const,
    available_credits: formatCredits(balance.available),
    held_credits: formatCredits(balance.held),
    spent_credits: formatCredits(balance.spent),
    granted_credits: formatCredits(balance.granted),
    entries: entries.map((e) => ({
      id: e.id,
      kind: e.kind,
      amount_credits: formatCredits(e.amount),
      task_id: e.taskId,
      note: e.note,
      created_at: e.createdAt.toISOString(),
    })),
  };
}
