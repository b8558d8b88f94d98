import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "../client.js";

// In a task ending's transaction, when its settlement gives credits back (core/credits/ledger.ts, Settlements):
// `amount` of the task's hold returns to the spend counters it was counted in (core/credits/spend-limits.ts: the
// period of the task's admission, the tenant's and its key's limits). A counter started after the hold never held
// it, hence the floor at zero. It answers no rows.
export async function returnSpend(tx: Tx, taskId: string, amount: bigint): Promise<void> {
  await tx.execute(spendReturn(taskId, amount));
}

// The statement itself, for a caller that writes it into one of its own; `when` holds it back unless true (a
// condition on the caller's other WITH statements).
export function spendReturn(taskId: string, amount: bigint, when: SQL = sql`true`): SQL {
  return sql`
    update spend_counters c
       set spent = greatest(c.spent - ${amount}, 0)
      from credit_ledger h
      join tasks t on t.id = h.task_id
      join spend_limits l on (l.scope = 'tenant' and l.owner = h.tenant_id) or (l.scope = 'key' and l.owner = h.api_key_id)
     where ${when} and h.task_id = ${taskId} and h.kind = 'hold'
       and c.scope = l.scope and c.owner = l.owner
       and c.period_start = date_trunc(l.period, t.created_at at time zone 'UTC') at time zone 'UTC'`;
}
