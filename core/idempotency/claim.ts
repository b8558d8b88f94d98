import { sql } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import { ServiceError } from "../errors/index.js";

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

function conflict(): ServiceError {
  return new ServiceError(
    "idempotency_conflict",
    "This Idempotency-Key was used with a different request body; use a new key for changed work.",
    { details: { recovery: { action: "use_new_idempotency_key", requires_input_change: false, client_request_id: "new" } } },
  );
}

export type ClaimOutcome = { kind: "claimed" } | { kind: "replay"; taskId: string };

// Must run inside the creating transaction. A transaction-scoped advisory lock on (tenant, key) marks the key
// as "being admitted": a concurrent request that cannot take it answers request_in_progress instead of
// waiting, and the lock vanishes with the transaction whether it commits or rolls back, so a crash never
// leaves a key stuck. Rejected requests roll back and leave no trace of the key.
export async function claimIdempotencyKey(
  tx: Executor,
  tenantId: string,
  key: string,
  fingerprint: string,
  now: Date,
): Promise<ClaimOutcome> {
  const locked = await tx.execute<{ ok: boolean }>(
    sql`select pg_try_advisory_xact_lock(${idempotencyLockKey(tenantId, key)}) as ok`,
  );
  const existing = await tx.execute<{ fingerprint: string; task_id: string; expires_at: string }>(sql`
    select fingerprint, task_id, expires_at from idempotency_keys where tenant_id = ${tenantId} and key = ${key}`);
  const row = existing[0];
  if (row && new Date(row.expires_at) > now) {
    if (row.fingerprint !== fingerprint) throw conflict();
    return { kind: "replay", taskId: row.task_id };
  }
  if (!locked[0]?.ok) {
    throw new ServiceError(
      "request_in_progress",
      "A request with this Idempotency-Key is still being admitted; retry shortly with the same key.",
      { headers: { "Retry-After": "1" } },
    );
  }
  if (row) await tx.execute(sql`delete from idempotency_keys where tenant_id = ${tenantId} and key = ${key}`);
  return { kind: "claimed" };
}

// A read before admission's slow steps (media fetching): a replay answers at once, without fetching again, and
// a changed body is refused at once. The claim inside the transaction still decides every race.
export async function peekIdempotencyKey(
  tx: Executor,
  tenantId: string,
  key: string,
  fingerprint: string,
  now: Date,
): Promise<string | null> {
  const rows = await tx.execute<{ fingerprint: string; task_id: string; expires_at: string }>(sql`
    select fingerprint, task_id, expires_at from idempotency_keys where tenant_id = ${tenantId} and key = ${key}`);
  const row = rows[0];
  if (!row || new Date(row.expires_at) <= now) return null;
  if (row.fingerprint !== fingerprint) throw conflict();
  return row.task_id;
}

export async function recordIdempotencyKey(
  tx: Executor,
  tenantId: string,
  key: string,
  fingerprint: string,
  taskId: string,
  now: Date,
): Promise<void> {
  await tx.execute(sql`
    insert into idempotency_keys (tenant_id, key, fingerprint, task_id, created_at, expires_at)
    values (${tenantId}, ${key}, ${fingerprint}, ${taskId}, ${now.toISOString()}, ${new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS).toISOString()})`);
}

// The advisory lock key is a 64-bit hash of (tenant, key), computed by Postgres so every process agrees.
export function idempotencyLockKey(tenantId: string, key: string) {
  return sql`hashtextextended(${tenantId} || ':' || ${key}, 0)`;
}
