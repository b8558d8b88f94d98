import { sql } from "drizzle-orm";
import type { Tx } from "../client.js";

export interface AccountSettlement {
  held: bigint;
  spent: bigint;
  returned: bigint;
}

// Last in a group of endings' transaction (core/credits/ledger.ts, Settlements.apply), once per tenant in tenant
// order: its settled holds leave `held`, what they captured joins `spent`, the rest goes back to `available`. The
// account's checks refuse a negative balance. It answers no rows.
export async function settleAccount(tx: Tx, tenantId: string, change: AccountSettlement): Promise<void> {
  await tx.execute(sql`
    update credit_accounts
       set held = held - ${change.held}, spent = spent + ${change.spent}, available = available + ${change.returned},
           updated_at = now()
     where tenant_id = ${tenantId}`);
}
