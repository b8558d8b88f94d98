import { BalanceMoved, balanceMovedFrom, insufficientBalance } from "../credits/ledger.js";
import { isSpendLimitCheck, spendLimitReached } from "../credits/spend-limits.js";
import { ownerKey, type SpendState } from "../db/spend-states.js";
import type { AdmissionSql, DirectSql } from "../db/client.js";
import { retryOnLostConnection } from "../db/lost-connection.js";
import type { WriteStep } from "../db/one-statement.js";
import { pipelinedTransaction } from "../db/pipelined-transaction.js";
import { admitTasks, type AdmittedTasks } from "../db/statements/admit-tasks.js";
import { tryLockKeys } from "../db/statements/lock-idempotency-keys.js";
import { readBalances } from "../db/statements/read-balances.js";
import { readKeys } from "../db/statements/read-idempotency-keys.js";
import { readSpend } from "../db/statements/read-spend.js";
import { registerJobName } from "../db/statements/register-job-name.js";
import { ServiceError } from "../errors/index.js";
import { IDEMPOTENCY_WINDOW_MS, judgeClaim, type KeyClaim } from "../idempotency/claim.js";
import { findCapability } from "../capabilities/table.js";
import { storedTaskRecords } from "./admitted-rows.js";
import type { TaskRow } from "./repository.js";

// Many admissions at once, each with the guarantees it would have alone: its idempotency key claimed (or
// replayed, or refused), its task inserted, its credits held, its job enqueued — all committed together or not at
// all. Members are judged in order, as if they had run one after another: a duplicate key behind a member that
// claimed it is in progress, and each hold is judged against the balance the members before it left.
//
// The batch is first written as though every member were admitted — fresh keys, balances that cover the holds —
// in ONE statement (core/db/statements/admit-tasks.ts), committed on its own (one round trip, nothing read first):
// the statement checks those assumptions as it writes and fails whole when one does not hold (a key stored or
// being admitted, a balance short, an account missing, anything the database refuses). Then, and only then, the batch is judged: a
// transaction whose first round trip sends BEGIN with the reads (locks, keys, balances) and whose second sends
// every write as one statement with the COMMIT right behind it (core/db/pipelined-transaction.ts, commitWith).
// Spend limits (core/credits/spend-limits.ts) are judged like balances: each hold against what the members before
// it left under its tenant's and its key's limits, and written as counters whose check refuses an overshoot.
// Fresh keys and covered holds are what almost every admission is; replays, conflicts and refusals pay for the
// failed first statement.
export interface Admission {
  claim: KeyClaim;
  // The task as it will be stored when admitted.
  row: TaskRow;
  hold: bigint;
  // The API key the request came with: its spend limit applies, and a refund gives its spend back.
  apiKeyId?: string | undefined;
}

export type AdmissionResult =
  | { kind: "admitted"; row: TaskRow }
  | { kind: "replay"; taskId: string }
  | { kind: "refused"; error: ServiceError };

const keyOf = (claim: { tenantId: string; key: string }) => `${claim.tenantId}\u0000${claim.key}`;

// Judged again from fresh reads when another transaction took from a tenant's balance meanwhile (BalanceMoved):
// the second reading sees that transaction committed. Past MAX_JUDGEMENTS the batch fails and the group commit
// admits its members one by one. A judgement whose connection was lost is made once more on another: a batch
// alone has no members to be admitted one by one, and both of its connections are lost together when the
// database ends every session. Judging twice is safe: a first judgement that committed with only its answer lost
// left the keys stored, and the second answers their tasks as replays.
const MAX_JUDGEMENTS = 3;

export async function admitBatch(direct: DirectSql, admissions: readonly Admission[]): Promise<AdmissionResult[]> {
  if (await admitAsWritten(direct, admissions)) return admissions.map((admission) => ({ kind: "admitted", row: admission.row }));
  for (let judgement = 1; ; judgement++) {
    try {
      return await retryOnLostConnection(() => judgeAndWrite(direct, admissions));
    } catch (error) {
      if (!(error instanceof BalanceMoved) || judgement >= MAX_JUDGEMENTS) throw error;
    }
  }
}

// Every member admitted in one statement, or nothing written and false (the batch is judged instead). Its failure
// is expected, not reported: the judged attempt decides each member's outcome and surfaces whatever is wrong.
async function admitAsWritten(direct: DirectSql, admissions: readonly Admission[]): Promise<boolean> {
  const statement = admitTasks(direct, admittedTasks(direct, admissions, batchNow(admissions)), "claim", payersOf(admissions).length);
  try {
    await statement;
    return true;
  } catch {
    return false;
  }
}

async function judgeAndWrite(direct: DirectSql, admissions: readonly Admission[]): Promise<AdmissionResult[]> {
  const keys = [...new Map(admissions.map((a) => [keyOf(a.claim), { tenantId: a.claim.tenantId, key: a.claim.key }])).values()];
  const keyIndex = new Map(keys.map((k, i) => [keyOf(k), i]));
  const payers = payersOf(admissions);
  const now = batchNow(admissions);
  const keyIds = [...new Set(admissions.flatMap((a) => (a.hold > 0n && a.apiKeyId !== undefined ? [a.apiKeyId] : [])))];

  return pipelinedTransaction(direct, async (connection, commitWith) => {
    const [locked, stored, balances, spend] = await Promise.all([
      tryLockKeys(connection, keys),
      readKeys(connection, keys),
      payers.length > 0 ? readBalances(connection, payers) : new Map<string, bigint>(),
      payers.length > 0 ? readSpend(connection, payers, keyIds, now) : new Map<string, SpendState>(),
      // The transaction's only write besides the one statement, and harmless alone (commitWith): graphile-worker
      // registers job names the same way.
      registerJobName(connection, "execute_task"),
    ]);

    const results: AdmissionResult[] = [];
    const admitted: Admission[] = [];
    const claimed = new Set<string>();
    for (const admission of admissions) {
      const { claim } = admission;
      const index = keyIndex.get(keyOf(claim)) as number;
      try {
        const outcome = judgeClaim(claim, stored[index], (locked[index] ?? false) && !claimed.has(keyOf(claim)));
        if (outcome.kind === "replay") {
          results.push(outcome);
          continue;
        }
        if (admission.hold > 0n) {
          const available = balances.get(claim.tenantId) ?? 0n;
          if (available < admission.hold) throw insufficientBalance(admission.hold, available);
          const limits = spendLimitsOf(spend, admission);
          const reached = limits.find((state) => state.spent + admission.hold > state.limit);
          if (reached) throw spendLimitReached(reached, admission.hold, now);
          balances.set(claim.tenantId, available - admission.hold);
          for (const state of limits) state.spent += admission.hold;
        }
        claimed.add(keyOf(claim));
        admitted.push(admission);
        results.push({ kind: "admitted", row: admission.row });
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        results.push({ kind: "refused", error });
      }
    }

    if (admitted.length === 0) return results;
    try {
      await commitWith(admitTasks(connection, admittedTasks(connection, admitted, now), "record"));
    } catch (error) {
      // Another admission counted spend under a shared limit since the reading: judged again, like a balance.
      if (isSpendLimitCheck(error)) throw new BalanceMoved(payers);
      throw balanceMovedFrom(error, payers) ?? error;
    }
    return results;
  });
}

// One instant for the whole batch, so that its reading and its write count spend in the same periods.
const batchNow = (admissions: readonly Admission[]) => (admissions[0] as Admission).claim.now;

// The limits a member's hold counts against: its tenant's and its key's, as far as the batch has used them.
function spendLimitsOf(spend: Map<string, SpendState>, admission: Admission): SpendState[] {
  const tenant = spend.get(ownerKey("tenant", admission.claim.tenantId));
  const key = admission.apiKeyId === undefined ? undefined : spend.get(ownerKey("key", admission.apiKeyId));
  return [tenant, key].filter((state): state is SpendState => state !== undefined);
}

// The tenants that hold credits in a batch, in tenant order.
const payersOf = (admissions: readonly Admission[]) => [...new Set(admissions.filter((a) => a.hold > 0n).map((a) => a.claim.tenantId))].sort();
const claimsOf = (admitted: readonly Admission[]) => admitted.map((a) => ({ ...a.claim, taskId: a.row.id }));
const holdsOf = (admitted: readonly Admission[]) =>
  admitted.filter((a) => a.hold > 0n).map((a) => ({ tenantId: a.claim.tenantId, taskId: a.row.id, amount: a.hold, apiKeyId: a.apiKeyId }));

// What the write statement stores for admitted members: the tasks, what their capabilities do on admission, the
// keys, and the holds with the spend they count.
function admittedTasks(sql: AdmissionSql, admitted: readonly Admission[], now: Date): AdmittedTasks {
  const rows = admitted.map((a) => a.row);
  return { ...storedTaskRecords(rows), capabilitySteps: admissionHooks(sql, rows), claims: claimsOf(admitted), keyWindowMs: IDEMPOTENCY_WINDOW_MS, holds: holdsOf(admitted), now };
}

// The admission hooks of the capabilities among the admitted tasks (core/capabilities/types.ts, lifecycle), each
// with its own tasks, in the admission's transaction.
function admissionHooks(connection: AdmissionSql, rows: readonly TaskRow[]): WriteStep[] {
  const byCapability = new Map<string, TaskRow[]>();
  for (const row of rows) byCapability.set(row.capability, [...(byCapability.get(row.capability) ?? []), row]);
  return [...byCapability].flatMap(([capability, tasks]) => {
    const admitted = findCapability(capability)?.lifecycle?.admitted;
    return admitted ? [{ name: `admitted_${capability}`, statement: admitted(connection, tasks) }] : [];
  });
}
