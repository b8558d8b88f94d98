import type { AdmissionSql, AdmissionTx } from "../client.js";
import type { Fragment } from "../one-statement.js";
import { boolean, text } from "./row-parsing.js";

const STATEMENT = "lock-idempotency-keys";

// A key's lock, tried: `tenant` and `key` are SQL expressions of the statement that tries it. A transaction-scoped
// advisory lock on (tenant, key) marks the key as being admitted (core/idempotency/claim.ts, judgeClaim); the
// admission's first write statement takes it too (admit-tasks.ts, claimKeys).
export function tryKeyLock(sql: AdmissionSql, tenant: string, key: string): Fragment {
  return sql`pg_try_advisory_xact_lock(hashtextextended((${sql.unsafe(tenant)}) || ':' || (${sql.unsafe(key)}), 0))`;
}

// Inside an admission transaction, the first of its judging reads: each key's lock tried, in one statement, so that
// the keys' rows read in the next one see every admission that released a lock before it. True where taken.
export async function tryLockKeys(sql: AdmissionTx, keys: readonly { tenantId: string; key: string }[]): Promise<boolean[]> {
  const records = keys.map(({ tenantId, key }) => ({ tenant_id: tenantId, key }));
  const rows = await sql<Record<string, unknown>[]>`
    select e.n::text as n, ${tryKeyLock(sql, "e.v->>'tenant_id'", "e.v->>'key'")} as locked
      from jsonb_array_elements(${sql.json(records)}::jsonb) with ordinality as e(v, n)`;
  const locked = keys.map(() => false);
  for (const row of rows) locked[Number(text(row, "n", STATEMENT)) - 1] = boolean(row, "locked", STATEMENT);
  return locked;
}
