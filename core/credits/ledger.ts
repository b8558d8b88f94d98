import { sql } from "drizzle-orm";
import type { AdmissionSql, Executor, Tx } from "../db/client.js";
import type { Fragment } from "../db/one-statement.js";
import { ServiceError } from "../errors/index.js";
import { formatCredits } from "./money.js";
import { recordSettlement } from "../db/statements/record-settlement.js";
import { settleAccount, type AccountSettlement } from "../db/statements/settle-account.js";
import { returnSpend } from "./spend-limits.js";

// Every movement of credits is a ledger row plus a guarded update of the tenant's account, in the caller's
// transaction (holds come many at a time, from an admission batch: one update per tenant). The partial unique
// indexes on credit_ledger make a second hold or a second settlement of the same task impossible; the account's
// check constraints make a negative balance impossible.

export async function grantCredits(tx: Executor, tenantId: string, amount: bigint, note: string): Promise<void> {
  await tx.execute(sql`
    insert into credit_accounts (tenant_id, available, granted) values (${tenantId}, ${amount}, ${amount})
    on conflict (tenant_id) do update
      set available = credit_accounts.available + excluded.available,
          granted = credit_accounts.granted + excluded.granted,
          updated_at = now()`);
  await tx.execute(sql`
    insert into credit_ledger (tenant_id, kind, amount, note) values (${tenantId}, 'grant', ${amount}, ${note})`);
}

export function insufficientBalance(required: bigint, available: bigint): ServiceError {
  const message =
    `This request needs ${formatCredits(required)} credits and ${formatCredits(available)} are available; nothing was ` +
    "started or charged. Add credits, or ask for less (a quote shows the price first).";
  return new ServiceError("insufficient_balance", message, {
    details: { required_credits: formatCredits(required), available_credits: formatCredits(available) },
  });
}

export interface Hold {
  tenantId: string;
  taskId: string;
  amount: bigint;
  apiKeyId: string | undefined;
}

// The ledger row of each hold; the accounts change in takeHolds. Both are steps of the admission's one write
// statement (core/db/one-statement.ts).
export function recordHoldEntries(sql: AdmissionSql, holds: readonly Hold[]): Fragment {
  const records = holds.map((h) => ({ tenant_id: h.tenantId, task_id: h.taskId, amount: h.amount.toString(), api_key_id: h.apiKeyId ?? null }));
  return sql`
    insert into credit_ledger (tenant_id, task_id, kind, amount, api_key_id)
    select h.tenant_id, h.task_id, 'hold', h.amount, h.api_key_id
      from jsonb_to_recordset(${sql.json(records)}::jsonb) as h(tenant_id text, task_id text, amount bigint, api_key_id text)`;
}

// Another transaction took from a balance between the batch's read and its holds: the batch is judged again.
export class BalanceMoved extends Error {
  constructor(payers: readonly string[]) {
    super(`the available balance of one of ${payers.join(", ")} fell below the holds decided from it`);
    this.name = "BalanceMoved";
  }
}

// The holds moved from available to held, one update per tenant, each account row locked in tenant order (two
// batches never deadlock) and only from the batch's write statement to its commit. The balance the holds were
// judged against was read unlocked; if another transaction lowered it meanwhile below the holds, the account's
// own check (available >= 0) fails the statement, and with it the transaction: balanceMovedFrom tells that
// failure apart, and the batch is judged again. It returns one row per account changed (a tenant without an account
// has none).
export function takeHolds(sql: AdmissionSql, holds: readonly Hold[]): Fragment {
  const totals = new Map<string, bigint>();
  for (const hold of holds) totals.set(hold.tenantId, (totals.get(hold.tenantId) ?? 0n) + hold.amount);
  const records = [...totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([tenant_id, total]) => ({ tenant_id, total: total.toString() }));
  return sql`
    with t as (
      select * from jsonb_to_recordset(${sql.json(records)}::jsonb) as t(tenant_id text, total bigint)
    ), locked as (
      select tenant_id from credit_accounts where tenant_id in (select tenant_id from t) order by tenant_id for update
    )
    update credit_accounts c
       set available = c.available - t.total, held = c.held + t.total, updated_at = now()
      from t join locked using (tenant_id)
     where c.tenant_id = t.tenant_id
    returning c.tenant_id`;
}

// BalanceMoved when `error` is the available-balance check failing in an admission's takeHolds, which paid for
// the holds of `payers` (the check does not say whose balance it was).
export function balanceMovedFrom(error: unknown, payers: readonly string[]): BalanceMoved | null {
  const failure = error as { code?: string; constraint_name?: string } | null;
  return failure?.code === CHECK_VIOLATION && failure.constraint_name === AVAILABLE_CHECK ? new BalanceMoved(payers) : null;
}

const CHECK_VIOLATION = "23514";
const AVAILABLE_CHECK = "credit_accounts_available_check";

// Settlements of the tasks that end in one transaction (core/tasks/finish-batch.ts). Each task settles at once with
// its ledger row, whose unique index makes a second settlement of a task impossible; the accounts change once per
// tenant when apply() runs, last before the commit and in tenant order, so a tenant's account row stays locked
// only for the commit itself however many of its tasks end together.
export class Settlements {
  private readonly accounts = new Map<string, AccountSettlement>();

  // `captured` is spent, the rest of the hold goes back to the available balance. Returns false when the task was
  // already settled (nothing changes then).
  async settle(tx: Tx, tenantId: string, taskId: string, held: bigint, captured: bigint): Promise<boolean> {
    if (captured > held) throw new Error(`capture ${captured} exceeds hold ${held} for ${taskId}`);
    if (!(await recordSettlement(tx, tenantId, taskId, held, captured))) return false;
    if (held > captured) await returnSpend(tx, taskId, held - captured);
    const account = this.accounts.get(tenantId) ?? { held: 0n, spent: 0n, returned: 0n };
    account.held += held;
    account.spent += captured;
    account.returned += held - captured;
    this.accounts.set(tenantId, account);
    return true;
  }

  async apply(tx: Tx): Promise<void> {
    for (const tenantId of [...this.accounts.keys()].sort()) await settleAccount(tx, tenantId, this.accounts.get(tenantId) as AccountSettlement);
    this.accounts.clear();
  }
}
