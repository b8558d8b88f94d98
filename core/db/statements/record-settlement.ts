import { sql } from "drizzle-orm";
import { formatCredits } from "../../credits/money.js";
import type { Tx } from "../client.js";

// In a task ending's transaction (core/credits/ledger.ts, Settlements): the settlement's ledger row, a capture of
// what was spent or the release of the whole hold. The ledger's unique index on a task's settlement makes a second
// one a no-op: false then, and nothing written.
export async function recordSettlement(tx: Tx, tenantId: string, taskId: string, held: bigint, captured: bigint): Promise<boolean> {
  const kind = captured === 0n ? "release" : "capture";
  const inserted = await tx.execute(sql`
    insert into credit_ledger (tenant_id, task_id, kind, amount, note)
    values (${tenantId}, ${taskId}, ${kind}, ${captured === 0n ? held : captured},
            ${captured === 0n || captured === held ? null : `returned ${formatCredits(held - captured)} of the hold`})
    on conflict do nothing
    returning id`);
  return inserted.length > 0;
}
