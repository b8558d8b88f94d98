import { sql } from "drizzle-orm";
import type { Executor } from "../client.js";
import { bigintOfText } from "./row-parsing.js";

export interface CreditBalance {
  available: bigint;
  held: bigint;
  spent: bigint;
  granted: bigint;
}

const STATEMENT = "read-balance";

// A tenant's credit account (GET /v1/credits, quotes): all zero for a tenant without one. Amounts are bigints,
// read as text so that no driver turns them into numbers.
export async function readBalance(tx: Executor, tenantId: string): Promise<CreditBalance> {
  const rows = await tx.execute<Record<string, unknown>>(sql`
    select available::text, held::text, spent::text, granted::text from credit_accounts where tenant_id = ${tenantId}`);
  const row = rows[0];
  if (!row) return { available: 0n, held: 0n, spent: 0n, granted: 0n };
  return {
    available: bigintOfText(row, "available", STATEMENT),
    held: bigintOfText(row, "held", STATEMENT),
    spent: bigintOfText(row, "spent", STATEMENT),
    granted: bigintOfText(row, "granted", STATEMENT),
  };
}
