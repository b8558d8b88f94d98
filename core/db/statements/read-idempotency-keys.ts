import type { AdmissionTx } from "../client.js";
import { text, timestamp } from "./row-parsing.js";

// The row a key left behind: which request it identified, and the task that request created.
export interface StoredKey {
  fingerprint: string;
  taskId: string;
  expiresAt: Date;
}

const STATEMENT = "read-idempotency-keys";

// Inside an admission transaction, after its keys' locks were tried (lock-idempotency-keys.ts): each key's row,
// in the order of `keys`, undefined where the key has none. Each key is looked up by its primary key on its own (a
// lateral subquery with a limit is never turned into a join), so a batch costs the same whatever the table's size
// or the planner's statistics say; as a join, a table that grew since its last ANALYZE was read whole for every
// batch.
export async function readKeys(sql: AdmissionTx, keys: readonly { tenantId: string; key: string }[]): Promise<(StoredKey | undefined)[]> {
  const records = keys.map(({ tenantId, key }) => ({ tenant_id: tenantId, key }));
  const rows = await sql<Record<string, unknown>[]>`
    select e.n::text as n, k.fingerprint, k.task_id, k.expires_at
      from jsonb_array_elements(${sql.json(records)}::jsonb) with ordinality as e(v, n)
      cross join lateral (
        select fingerprint, task_id, expires_at from idempotency_keys
         where tenant_id = e.v->>'tenant_id' and key = e.v->>'key'
         limit 1) k`;
  const stored: (StoredKey | undefined)[] = keys.map(() => undefined);
  for (const row of rows) {
    stored[Number(text(row, "n", STATEMENT)) - 1] = {
      fingerprint: text(row, "fingerprint", STATEMENT),
      taskId: text(row, "task_id", STATEMENT),
      expiresAt: timestamp(row, "expires_at", STATEMENT),
    };
  }
  return stored;
}
