import { sql } from "drizzle-orm";
import type { Tx } from "../client.js";
import { spendReturn } from "./return-spend.js";

// In a task ending's transaction (core/credits/ledger.ts, Settlements): the settlement's ledger row, a capture of
// what was spent or the release of the whole hold, and with it, when the hold was not all captured, the rest given
// back to the spend counters it was counted in (core/db/statements/return-spend.ts) — one statement, one round trip
// of the ending's. The ledger's unique index on a task's settlement makes a second one a no-op: false then, and
// nothing written, the counters included. `note` is the row's, as the caller words it.
export async function recordSettlement(tx: Tx, tenantId: string, taskId: string, held: bigint, captured: bigint, note: string | null): Promise<boolean> {
  const kind = captured === 0n ? "release" : "capture";
  const settlement = sql`
    insert into credit_ledger (tenant_id, task_id, kind, amount, note)
    values (${tenantId}, ${taskId}, ${kind}, ${captured === 0n ? held : captured},
            ${note})
    on conflict do nothing
    returning id`;
  const inserted = await tx.execute(
    held > captured
      ? sql`with settled as (${settlement}), returned as (${spendReturn(taskId, held - captured, sql`exists (select 1 from settled)`)})
            select id from settled`
      : settlement,
  );
  return inserted.length > 0;
}
