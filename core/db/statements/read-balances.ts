import type { AdmissionTx } from "../client.js";
import { bigintOfText, text } from "./row-parsing.js";

const STATEMENT = "read-balances";

// Inside an admission transaction: each tenant's available balance as committed when the batch began, read
// without a lock, so that the batch holds no account row while it writes its tasks. A tenant without an account
// has nothing available. The holds decided from it are taken by the write statement (admit-tasks.ts,
// takeHolds), guarded by the account's own check.
export async function readBalances(sql: AdmissionTx, tenantIds: readonly string[]): Promise<Map<string, bigint>> {
  const rows = await sql<Record<string, unknown>[]>`
    select tenant_id, available::text from credit_accounts where tenant_id = any(${[...tenantIds]}::text[])`;
  return new Map(rows.map((row) => [text(row, "tenant_id", STATEMENT), bigintOfText(row, "available", STATEMENT)]));
}
