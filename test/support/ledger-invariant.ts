import { sql } from "drizzle-orm";
import type { Core } from "../../core/index.js";

// The credit invariant every test file must leave behind, for every tenant of its database: no negative balance,
// granted = available + held + spent, and the account agrees with its ledger (granted is the sum of grants,
// spent the sum of captures, held the sum of the holds not yet settled); no settlement without its hold, no task
// settled twice. Returns one line per violation, none when all is well.
export async function ledgerInvariantViolations(db: Core["db"]): Promise<string[]> {
  const accounts = await db.execute<{
    tenant_id: string;
    available: string;
    held: string;
    spent: string;
    granted: string;
    ledger_granted: string;
    ledger_spent: string;
    ledger_held: string;
  }>(sql`
    select account.tenant_id, account.available::text, account.held::text, account.spent::text, account.granted::text,
      coalesce((select sum(amount) from credit_ledger where tenant_id = account.tenant_id and kind = 'grant'), 0)::text
        as ledger_granted,
      coalesce((select sum(amount) from credit_ledger where tenant_id = account.tenant_id and kind = 'capture'), 0)::text
        as ledger_spent,
      coalesce((
        select sum(hold.amount) from credit_ledger as hold
        where hold.tenant_id = account.tenant_id and hold.kind = 'hold' and not exists (
          select 1 from credit_ledger as settlement
          where settlement.task_id = hold.task_id and settlement.kind in ('capture', 'release', 'charge'))
      ), 0)::text as ledger_held
    from credit_accounts as account`);
  const violations: string[] = [];
  for (const a of accounts) {
    const [available, held, spent, granted] = [a.available, a.held, a.spent, a.granted].map(BigInt) as [bigint, bigint, bigint, bigint];
    const account = `tenant ${a.tenant_id} (available ${available}, held ${held}, spent ${spent}, granted ${granted})`;
    if (available < 0n || held < 0n || spent < 0n) violations.push(`${account}: a negative balance`);
    if (granted !== available + held + spent) violations.push(`${account}: granted ≠ available + held + spent`);
    if (granted !== BigInt(a.ledger_granted)) violations.push(`${account}: the ledger grants ${a.ledger_granted}`);
    if (spent !== BigInt(a.ledger_spent)) violations.push(`${account}: the ledger captures ${a.ledger_spent}`);
    if (held !== BigInt(a.ledger_held)) violations.push(`${account}: the ledger's open holds add up to ${a.ledger_held}`);
  }
  const orphans = await db.execute<{ task_id: string; kinds: string }>(sql`
    select task_id, string_agg(kind, ',' order by id) as kinds from credit_ledger
    where task_id is not null
    group by task_id
    having count(*) filter (where kind = 'hold') <> 1 or count(*) filter (where kind in ('capture', 'release', 'charge')) > 1`);
  for (const o of orphans) violations.push(`task ${o.task_id}: ledger entries ${o.kinds} (one hold and at most one settlement expected)`);
  return violations;
}
