import { sql } from "drizzle-orm";
import type { Executor, Tx } from "../db/client.js";
import { ServiceError } from "../errors/index.js";
import { formatCredits } from "./money.js";
import { recordSettlement } from "../db/statements/record-settlement.js";
import { settleAccount, type AccountSettlement } from "../db/statements/settle-account.js";

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

// Another transaction took from a balance between the batch's read and its holds: the batch is judged again.
export class BalanceMoved extends Error {
  constructor(payers: readonly string[]) {
    super(`the available balance of one of ${payers.join(", ")} fell below the holds decided from it`);
    this.name = "BalanceMoved";
  }
}

// BalanceMoved when `error` is the available-balance check failing in an admission's write statement (core/db/
// statements/admit-tasks.ts, takeHolds), which paid for
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
    // A capture of part of the hold says what went back.
    const note = captured === 0n || captured === held ? null : `returned ${formatCredits(held - captured)} of the hold`;
    if (!(await recordSettlement(tx, tenantId, taskId, held, captured, note))) return false;
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
