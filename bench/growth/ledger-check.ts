import postgres from "postgres";

// The credit invariant the tests leave behind (test/support/ledger-invariant.ts), checked over a seeded database
// before anything is measured on it: no negative balance, granted = available + held + spent, each account equal to
// its ledger (grants, captures, holds not settled), one hold and at most one settlement per task. The same
// conditions, written as grouped scans rather than a lookup per account, so that a million tasks take seconds.
export async function ledgerViolations(databaseUrl: string): Promise<number> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [accounts] = await sql<{ n: number }[]>`
      with sums as (
        select tenant_id,
               coalesce(sum(amount) filter (where kind = 'grant'), 0) as granted,
               coalesce(sum(amount) filter (where kind = 'capture'), 0) as spent
          from credit_ledger group by tenant_id
      ), open_holds as (
        select hold.tenant_id, sum(hold.amount) as held from credit_ledger hold
         where hold.kind = 'hold' and not exists (
           select 1 from credit_ledger settlement
            where settlement.task_id = hold.task_id and settlement.kind in ('capture', 'release', 'charge'))
         group by hold.tenant_id
      )
      select count(*)::int as n from credit_accounts a left join sums s using (tenant_id) left join open_holds h using (tenant_id)
       where a.available < 0 or a.held < 0 or a.spent < 0 or a.granted <> a.available + a.held + a.spent
          or a.granted <> coalesce(s.granted, 0) or a.spent <> coalesce(s.spent, 0) or a.held <> coalesce(h.held, 0)`;
    const [tasks] = await sql<{ n: number }[]>`
      select count(*)::int as n from (
        select task_id from credit_ledger where task_id is not null group by task_id
        having count(*) filter (where kind = 'hold') <> 1 or count(*) filter (where kind in ('capture', 'release', 'charge')) > 1
      ) wrong`;
    return (accounts?.n ?? 0) + (tasks?.n ?? 0);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
