import { sql } from "drizzle-orm";
import { SPEND_PERIODS, type SpendState } from "../spend-states.js";
import type { Tx } from "../client.js";
import { returnSpend } from "./return-spend.js";
import { bigintOfText, text, UnexpectedRow } from "./row-parsing.js";

// A task's hold changed while it runs, when `auto` chose another model once the inputs were downloaded
// (core/tasks/reselection.ts), in the transaction that records the new model. The hold stays one ledger row per
// task (the partial unique index allows no second): its amount becomes the new hold and its note says what it
// was. The difference moves between available and held; a raise counts against the spend limits the hold counts
// under, a lowering gives its spend back, both in the counters of the task's admission period, where refunds
// return it (return-spend.ts).

const STATEMENT = "change-hold";

// The available balance of the tenant, its account row locked until the transaction ends (a raise is judged
// against it and written under the lock). Null for a tenant without an account.
export async function lockAvailable(tx: Tx, tenantId: string): Promise<bigint | null> {
  const rows = await tx.execute<Record<string, unknown>>(sql`
    select available::text from credit_accounts where tenant_id = ${tenantId} for update`);
  return rows[0] ? bigintOfText(rows[0], "available", STATEMENT) : null;
}

// The spend limits the task's hold counts under (its tenant's, its key's), with what is counted under each in the
// period of the task's admission.
export async function holdSpendStates(tx: Tx, taskId: string): Promise<SpendState[]> {
  const rows = await tx.execute<Record<string, unknown>>(sql`
    select l.scope, l.owner, l.period, l.limit::text, coalesce(c.spent, 0)::text as spent
      from credit_ledger h
      join tasks t on t.id = h.task_id
      join spend_limits l on (l.scope = 'tenant' and l.owner = h.tenant_id) or (l.scope = 'key' and l.owner = h.api_key_id)
      left join spend_counters c
        on c.scope = l.scope and c.owner = l.owner
       and c.period_start = date_trunc(l.period, t.created_at at time zone 'UTC') at time zone 'UTC'
     where h.task_id = ${taskId} and h.kind = 'hold'
     order by l.scope, l.owner`);
  return rows.map((row) => {
    const scope = text(row, "scope", STATEMENT);
    const period = text(row, "period", STATEMENT);
    if (scope !== "key" && scope !== "tenant") throw new UnexpectedRow(STATEMENT, "scope", "key or tenant", scope);
    const known = SPEND_PERIODS.find((p) => p === period);
    if (known === undefined) throw new UnexpectedRow(STATEMENT, "period", SPEND_PERIODS.join(" or "), period);
    return {
      scope,
      owner: text(row, "owner", STATEMENT),
      period: known,
      limit: bigintOfText(row, "limit", STATEMENT),
      spent: bigintOfText(row, "spent", STATEMENT),
    };
  });
}

export interface HoldChange {
  tenantId: string;
  taskId: string;
  from: bigint;
  to: bigint;
  note: string;
}

// Writes the change: the account, the hold's ledger row (a task admitted at no price has none: it gets one), and
// the spend counters. The account's check refuses a negative available balance and the counters' check a passed
// limit, so a raise the caller judged against a reading that moved since fails whole.
export async function changeHold(tx: Tx, change: HoldChange): Promise<void> {
  const { tenantId, taskId, from, to, note } = change;
  const delta = to - from;
  await tx.execute(sql`
    update credit_accounts set available = available - ${delta}, held = held + ${delta}, updated_at = now()
     where tenant_id = ${tenantId}`);
  const rewritten = await tx.execute(sql`
    update credit_ledger set amount = ${to}, note = ${note} where task_id = ${taskId} and kind = 'hold' returning id`);
  if (rewritten.length === 0) {
    await tx.execute(sql`
      insert into credit_ledger (tenant_id, task_id, kind, amount, note) values (${tenantId}, ${taskId}, 'hold', ${to}, ${note})`);
  }
  if (delta < 0n) await returnSpend(tx, taskId, -delta);
  if (delta > 0n) await countRaise(tx, taskId, delta);
}

// A raise counted as admission counts a hold (admit-tasks.ts, countSpend), in the admission's period.
async function countRaise(tx: Tx, taskId: string, amount: bigint): Promise<void> {
  await tx.execute(sql`
    insert into spend_counters (scope, owner, period_start, spent, "limit")
    select l.scope, l.owner, date_trunc(l.period, t.created_at at time zone 'UTC') at time zone 'UTC', ${amount}, l.limit
      from credit_ledger h
      join tasks t on t.id = h.task_id
      join spend_limits l on (l.scope = 'tenant' and l.owner = h.tenant_id) or (l.scope = 'key' and l.owner = h.api_key_id)
     where h.task_id = ${taskId} and h.kind = 'hold'
     order by l.scope, l.owner
    on conflict (scope, owner, period_start) do update
      set spent = spend_counters.spent + excluded.spent, "limit" = excluded."limit"`);
}
