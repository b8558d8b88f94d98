import type postgres from "postgres";
import { TASK_COLUMN_NAMES } from "../task-rows.js";
import type { AdmissionSql } from "../client.js";
import { oneStatement, type Fragment, type WriteStep } from "../one-statement.js";
import { DEFAULT_MAX_ATTEMPTS, type JobName } from "./add-job.js";
import { tryKeyLock } from "./lock-idempotency-keys.js";
import { GRAPHILE_JOBS_TABLE, GRAPHILE_TASKS_TABLE } from "./graphile-jobs.js";

// The admission batch's one write statement (core/tasks/admission-batch.ts): every admitted task with what it
// needs, as the steps of one WITH statement (core/db/one-statement.ts), which Postgres runs whole or not at all.
// Sent twice by a batch at most: first on `direct` on its own, written as though every member were admitted (its
// keys claimed fresh, its balances guarded), then, if that failed, as the judged members' write inside the
// admission transaction, with the COMMIT right behind it. It answers one row, which nobody reads.

// The credits one admitted task holds, and the API key whose spend limit they count against.
export interface HeldCredits {
  tenantId: string;
  taskId: string;
  amount: bigint;
  apiKeyId: string | undefined;
}

// An Idempotency-Key as admission stores it for its task (core/idempotency/claim.ts judged it first): the tenant's
// key, the fingerprint of its request, and the admission's time, from which it is kept for the window.
export interface AdmissionKey {
  tenantId: string;
  key: string;
  fingerprint: string;
  now: Date;
}

export interface AdmittedTasks {
  // The tasks as stored (core/tasks/admitted-rows.ts): records by column name, and the data URIs taken out of
  // their inputs.
  records: readonly Record<string, unknown>[];
  inlineMedia: readonly { task_id: string; pointer: string; data_uri: string }[];
  // The capabilities' own steps for their admitted tasks (core/capabilities/types.ts, lifecycle.admitted).
  capabilitySteps: readonly WriteStep[];
  claims: readonly (AdmissionKey & { taskId: string })[];
  // How long each key is kept from its admission (core/idempotency/claim.ts, IDEMPOTENCY_WINDOW_MS).
  keyWindowMs: number;
  holds: readonly HeldCredits[];
  now: Date;
}

// How the keys are written: `claim` as they are stored, each row inserted only once its key's lock is taken, the
// statement failing (admission_guard, migrations/0009) when a lock is held elsewhere, or (unique violation) when
// the key has a row already, live or expired, or comes twice: the first attempt, which judged nothing. Taking the
// lock before inserting the row means the insert never waits on another admission's uncommitted row of the same
// key. `record` after judging: a claimed key's row, if any, has expired (a live one replays or conflicts) and is
// replaced; the lock taken by the judging keeps any other admission from claiming it meanwhile. Each key is kept
// for `keyWindowMs` from admission.
export type KeyWrite = "claim" | "record";

// `payers`, given on the first attempt, is the number of tenants holding credits: the statement fails unless each
// has an account (the held_balances step changes one row per account).
export function admitTasks(sql: AdmissionSql, admitted: AdmittedTasks, keys: KeyWrite, payers?: number): Fragment {
  const steps: WriteStep[] = [
    { name: "task_rows", statement: insertTasks(sql, admitted.records) },
    ...(admitted.inlineMedia.length > 0 ? [{ name: "task_inline_media_rows", statement: insertInlineMedia(sql, admitted.inlineMedia) }] : []),
    ...admitted.capabilitySteps,
    { name: "key_rows", statement: keys === "claim" ? claimKeys(sql, admitted) : recordKeys(sql, admitted) },
    { name: "job_rows", statement: insertJobs(sql, "execute_task", admitted.records.map((record) => ({ task_id: record.id as string }))) },
  ];
  if (admitted.holds.length > 0) {
    steps.push({ name: "hold_rows", statement: recordHoldEntries(sql, admitted.holds) });
    steps.push({ name: "held_balances", statement: takeHolds(sql, admitted.holds) });
    steps.push({ name: "spend_rows", statement: countSpend(sql, admitted.holds, admitted.now) });
  }
  const announce = announceJobs(sql, "job_rows");
  const last =
    payers !== undefined && payers > 0
      ? sql`select ${announce}, admission_guard((select count(*) from held_balances) = ${payers}, 'an account is missing')`
      : sql`select ${announce}`;
  return oneStatement(sql, steps, last);
}

const TASK_COLUMNS = TASK_COLUMN_NAMES.map((name) => `"${name}"`).join(", ");

function insertTasks(sql: AdmissionSql, records: readonly Record<string, unknown>[]): Fragment {
  const columns = sql.unsafe(TASK_COLUMNS);
  return sql`
    insert into tasks (${columns})
    select ${columns} from jsonb_populate_recordset(null::tasks, ${sql.json(records as postgres.JSONValue)}::jsonb)`;
}

function insertInlineMedia(sql: AdmissionSql, inline: AdmittedTasks["inlineMedia"]): Fragment {
  return sql`
    insert into task_inline_media (task_id, pointer, data_uri)
    select task_id, pointer, data_uri from jsonb_to_recordset(${sql.json(inline)}::jsonb) as m(task_id text, pointer text, data_uri text)`;
}

function claimKeys(sql: AdmissionSql, admitted: AdmittedTasks): Fragment {
  return sql`
    insert into idempotency_keys (tenant_id, key, fingerprint, task_id, created_at, expires_at)
    select r.* from jsonb_to_recordset(${sql.json(keyRows(admitted))}::jsonb)
      as r(tenant_id text, key text, fingerprint text, task_id text, created_at timestamptz, expires_at timestamptz)
     where admission_guard(${tryKeyLock(sql, "r.tenant_id", "r.key")}, 'a key is being admitted elsewhere')`;
}

function recordKeys(sql: AdmissionSql, admitted: AdmittedTasks): Fragment {
  return sql`
    insert into idempotency_keys (tenant_id, key, fingerprint, task_id, created_at, expires_at)
    select * from jsonb_to_recordset(${sql.json(keyRows(admitted))}::jsonb)
      as r(tenant_id text, key text, fingerprint text, task_id text, created_at timestamptz, expires_at timestamptz)
    on conflict (tenant_id, key) do update
      set fingerprint = excluded.fingerprint, task_id = excluded.task_id, created_at = excluded.created_at,
          expires_at = excluded.expires_at`;
}

const keyRows = ({ claims, keyWindowMs }: AdmittedTasks) =>
  claims.map((c) => ({
    tenant_id: c.tenantId,
    key: c.key,
    fingerprint: c.fingerprint,
    task_id: c.taskId,
    created_at: c.now.toISOString(),
    expires_at: new Date(c.now.getTime() + keyWindowMs).toISOString(),
  }));

// Many jobs of one kind, without keys, added by one INSERT into graphile-worker's job table, and announced by one
// NOTIFY as graphile_worker.add_jobs announces them; add_jobs itself is not used (docs/workarounds.md #6). The
// columns left out take graphile-worker's defaults, as add_jobs' do. The job name was registered by the
// transaction's earlier statement (register-job-name.ts). Exported for test/admission/direct-jobs.test.ts, which
// holds these rows to add_jobs' own.
export function insertJobs(sql: AdmissionSql, name: JobName, payloads: readonly Record<string, unknown>[]): Fragment {
  return sql`
    insert into ${sql.unsafe(GRAPHILE_JOBS_TABLE)} (task_id, payload, max_attempts)
    select (select id from ${sql.unsafe(GRAPHILE_TASKS_TABLE)} where identifier = ${name}), p, ${DEFAULT_MAX_ATTEMPTS}
      from json_array_elements(${sql.json(payloads as postgres.JSONValue)}::json) as p
    returning 1`;
}

// The NOTIFY of the jobs the step named `step` (an insertJobs) added.
export function announceJobs(sql: AdmissionSql, step: string): Fragment {
  return sql`pg_notify('jobs:insert', json_build_object('r', random(), 'count', (select count(*) from ${sql.unsafe(step)}))::text)`;
}

// The ledger row of each hold; the accounts change in takeHolds.
function recordHoldEntries(sql: AdmissionSql, holds: readonly HeldCredits[]): Fragment {
  const records = holds.map((h) => ({ tenant_id: h.tenantId, task_id: h.taskId, amount: h.amount.toString(), api_key_id: h.apiKeyId ?? null }));
  return sql`
    insert into credit_ledger (tenant_id, task_id, kind, amount, api_key_id)
    select h.tenant_id, h.task_id, 'hold', h.amount, h.api_key_id
      from jsonb_to_recordset(${sql.json(records)}::jsonb) as h(tenant_id text, task_id text, amount bigint, api_key_id text)`;
}

// The holds moved from available to held, one update per tenant, each account row locked in tenant order (two
// batches never deadlock) and only from the batch's write statement to its commit. The balance the holds were
// judged against was read unlocked; if another transaction lowered it meanwhile below the holds, the account's
// own check (available >= 0) fails the statement, and with it the transaction: core/credits/ledger.ts's
// balanceMovedFrom tells that failure apart, and the batch is judged again. It returns one row per account changed
// (a tenant without an account has none).
function takeHolds(sql: AdmissionSql, holds: readonly HeldCredits[]): Fragment {
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

// The holds added to the counters of the spend limits that apply to them (core/credits/spend-limits.ts: the
// tenant's, the key's), one row per limit and period, inserted in owner order so that two batches lock counters in
// the same order. A counter's limit follows the limit as set now, so a lowered limit refuses from the next
// admission; its check refuses the statement that would pass it (isSpendLimitCheck).
function countSpend(sql: AdmissionSql, holds: readonly HeldCredits[], now: Date): Fragment {
  const records = holds.map((h) => ({ tenant_id: h.tenantId, api_key_id: h.apiKeyId ?? null, amount: h.amount.toString() }));
  return sql`
    with h as (
      select * from jsonb_to_recordset(${sql.json(records)}::jsonb) as h(tenant_id text, api_key_id text, amount bigint)
    ), owners as (
      select 'tenant' as scope, tenant_id as owner, amount from h
      union all
      select 'key', api_key_id, amount from h where api_key_id is not null
    ), due as (
      select l.scope, l.owner, l.period, l.limit, sum(o.amount)::bigint as amount
        from owners o join spend_limits l on l.scope = o.scope and l.owner = o.owner
       group by l.scope, l.owner, l.period, l.limit
    )
    insert into spend_counters (scope, owner, period_start, spent, "limit")
    select scope, owner, date_trunc(period, ${now.toISOString()}::timestamptz at time zone 'UTC') at time zone 'UTC', amount, "limit"
      from due order by scope, owner
    on conflict (scope, owner, period_start) do update
      set spent = spend_counters.spent + excluded.spent, "limit" = excluded."limit"
    returning scope`;
}
