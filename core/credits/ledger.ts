import { sql } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import { ServiceError } from "../errors/index.js";
import { formatCredits } from "./money.js";

// Every movement of credits is one ledger row plus one guarded update of the tenant's account, in the caller's
// transaction. The partial unique indexes on credit_ledger make a second hold or a second settlement of the
// same task impossible; the account's check constraints make a negative balance impossible.

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

export async function holdCredits(tx: Executor, tenantId: string, taskId: string, amount: bigint): Promise<void> {
  const updated = await tx.execute(sql`
    update credit_accounts
       set available = available - ${amount}, held = held + ${amount}, updated_at = now()
     where tenant_id = ${tenantId} and available >= ${amount}
     returning tenant_id`);
  if (updated.length === 0) {
    const rows = await tx.execute<{ available: string }>(
      sql`select available::text from credit_accounts where tenant_id = ${tenantId}`,
    );
    const available = BigInt(rows[0]?.available ?? "0");
    throw new ServiceError("insufficient_balance", "Not enough credits for this request; nothing was started or charged.", {
      details: { required_credits: formatCredits(amount), available_credits: formatCredits(available) },
    });
  }
  await tx.execute(sql`
    insert into credit_ledger (tenant_id, task_id, kind, amount) values (${tenantId}, ${taskId}, 'hold', ${amount})`);
}

// Settles a held task: `captured` is spent, the rest of the hold goes back to the available balance.
// Returns false when the task was already settled (nothing changes then).
export async function settleHold(
  tx: Executor,
  tenantId: string,
  taskId: string,
  held: bigint,
  captured: bigint,
): Promise<boolean> {
  if (captured > held) throw new Error(`capture ${captured} exceeds hold ${held} for ${taskId}`);
  const kind = captured === 0n ? "release" : "capture";
  const inserted = await tx.execute(sql`
    insert into credit_ledger (tenant_id, task_id, kind, amount, note)
    values (${tenantId}, ${taskId}, ${kind}, ${captured === 0n ? held : captured},
            ${captured === 0n || captured === held ? null : `returned ${formatCredits(held - captured)} of the hold`})
    on conflict do nothing
    returning id`);
  if (inserted.length === 0) return false;
  await tx.execute(sql`
    update credit_accounts
       set held = held - ${held}, spent = spent + ${captured}, available = available + ${held - captured},
           updated_at = now()
     where tenant_id = ${tenantId}`);
  return true;
}

export interface CreditBalance {
  available: bigint;
  held: bigint;
  spent: bigint;
  granted: bigint;
}

export async function readBalance(tx: Executor, tenantId: string): Promise<CreditBalance> {
  const rows = await tx.execute<{ available: string; held: string; spent: string; granted: string }>(sql`
    select available::text, held::text, spent::text, granted::text from credit_accounts where tenant_id = ${tenantId}`);
  const row = rows[0];
  return {
    available: BigInt(row?.available ?? "0"),
    held: BigInt(row?.held ?? "0"),
    spent: BigInt(row?.spent ?? "0"),
    granted: BigInt(row?.granted ?? "0"),
  };
}

export interface LedgerEntry {
  id: string;
  kind: string;
  amount: bigint;
  taskId: string | null;
  note: string | null;
  createdAt: Date;
}

export async function recentLedgerEntries(tx: Executor, tenantId: string, limit: number): Promise<LedgerEntry[]> {
  const rows = await tx.execute<{
    id: string;
    kind: string;
    amount: string;
    task_id: string | null;
    note: string | null;
    created_at: string;
  }>(sql`
    select id::text, kind, amount::text, task_id, note, created_at from credit_ledger
     where tenant_id = ${tenantId} order by id desc limit ${limit}`);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    amount: BigInt(r.amount),
    taskId: r.task_id,
    note: r.note,
    createdAt: new Date(r.created_at),
  }));
}
