import { sql as drizzleSql } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import type { AdmissionKey } from "../db/statements/admit-tasks.js";
import type { StoredKey } from "../db/statements/read-idempotency-keys.js";
import { ServiceError } from "../errors/index.js";

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

// One (tenant, Idempotency-Key) an admission wants, with the fingerprint of its request.
export interface KeyClaim extends AdmissionKey {
  // Where the caller gave the key: REST's Idempotency-Key header (no `param`), or an argument such as MCP's
  // client_request_id, which its refusals point at.
  keyName?: string;
  keyParam?: string;
}

export type ClaimOutcome = { kind: "claimed" } | { kind: "replay"; taskId: string };

function conflict(claim: KeyClaim): ServiceError {
  return new ServiceError(
    "idempotency_conflict",
    `This ${claim.keyName ?? "Idempotency-Key"} was used with a different request body; use a new key for changed work.`,
    {
      param: claim.keyParam,
      details: { recovery: { action: "use_new_idempotency_key", requires_input_change: false, client_request_id: "new" } },
    },
  );
}

function inProgress(claim: KeyClaim): ServiceError {
  return new ServiceError(
    "request_in_progress",
    `A request with this ${claim.keyName ?? "Idempotency-Key"} is still being admitted; retry shortly with the same key.`,
    { param: claim.keyParam, headers: { "Retry-After": "1" } },
  );
}

// What a key means for an admission, given the row read after trying its lock. A transaction-scoped advisory lock
// on (tenant, key) marks the key as "being admitted": whoever cannot take it answers request_in_progress instead
// of waiting, and the lock vanishes with the transaction whether it commits or rolls back, so a crash never leaves
// a key stuck. A live row replays (same request) or conflicts (another body), whoever holds the lock.
export function judgeClaim(claim: KeyClaim, stored: StoredKey | undefined, locked: boolean): ClaimOutcome {
  const replayed = replayedTask(claim, stored);
  if (replayed) return { kind: "replay", taskId: replayed };
  if (!locked) throw inProgress(claim);
  return { kind: "claimed" };
}

// The task a live key already created for this same request, or null when the key is unused or expired; a live
// key used for another request is a conflict.
function replayedTask(claim: KeyClaim, stored: StoredKey | undefined): string | null {
  if (!stored || stored.expiresAt <= claim.now) return null;
  if (stored.fingerprint !== claim.fingerprint) throw conflict(claim);
  return stored.taskId;
}

// The keys' locks are tried and their rows read inside the admission transaction (core/db/statements/
// lock-idempotency-keys.ts, read-idempotency-keys.ts); the keys are written by its one write statement
// (core/db/statements/admit-tasks.ts).

// A read before admission's fallible steps finish refusing: a replay of an admitted request answers with its task
// even if those steps would now refuse it, and a changed body is refused as a conflict. Outside any transaction,
// so it decides no race; the claim inside the admission transaction does.
export async function peekIdempotencyKey(db: Executor, claim: KeyClaim): Promise<string | null> {
  const rows = await db.execute<{ fingerprint: string; task_id: string; expires_at: string }>(drizzleSql`
    select fingerprint, task_id, expires_at from idempotency_keys where tenant_id = ${claim.tenantId} and key = ${claim.key}`);
  const row = rows[0];
  return replayedTask(claim, row && { fingerprint: row.fingerprint, taskId: row.task_id, expiresAt: new Date(row.expires_at) });
}
