import { sql } from "drizzle-orm";
import { DEFAULT_MAX_ATTEMPTS } from "../../jobs/enqueue.js";
import { startStatus, TASK_TRANSITIONS } from "../../tasks/state.js";
import { taskRowOf, type TaskRow } from "../../tasks/task-rows.js";
import { DEFERRED_PRIORITY, deferralDelayMs, SLOT_LEASE_MS } from "../../tasks/tenant-slots.js";
import type { VendorFamily } from "../../vendor-families.js";
import type { TransitionsDb } from "../client.js";
import { boolean, text } from "./row-parsing.js";

// One execute job asking to start its task: the job's graphile-worker id, and how often it was deferred already.
export interface StartRequest {
  taskId: string;
  jobId: string;
  deferrals: number;
}

// A task the statement changed, for the job that asked: started (the row as it now is), or deferred.
export type StartedRow = { askedBy: string; taskId: string } & ({ deferred: false; row: TaskRow } | { deferred: true });

const STATEMENT = "start-tasks";

// The state machine's `start` (core/tasks/state.ts) for a group of execute jobs, written out for the attempt count,
// the deadline, the tenant's slots and the job allowed to run the execution: a task still open and within its
// deadline, of one of `families`, asked by the job it belongs to (the admission's while none has started it,
// otherwise the one named by `execution_token`), is marked running (counted as an attempt when it was queued; one
// found running was started by this same job before its worker died) if its tenant has a free slot among `slots`
// (core/tasks/tenant-slots.ts; the highest first, which deliveries leave to executions), the oldest tasks of a
// tenant first. A task whose tenant has none is deferred by the same UPDATE: a new execute job is added at a later
// run_at and a lower priority and made the task's token, so only it can start the task, even if the asking job
// runs again after a crash (docs/workarounds.md #6: the job row is written into graphile-worker's table). One
// UPDATE for both and few steps: Postgres plans this statement afresh for every group (its parameters are
// arrays), and planning costs more than running it. Tasks that cannot start are absent from the answer.
export async function startTasks(
  db: TransitionsDb,
  requests: readonly StartRequest[],
  families: readonly VendorFamily[],
  slots: number,
  now: Date,
): Promise<StartedRow[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + SLOT_LEASE_MS).toISOString();
  const open = TASK_TRANSITIONS.start.from;
  const status = startStatus(sql`c.slot is not null`);
  const ids = sql.param(requests.map((r) => r.taskId));
  const rows = await db.execute<Record<string, unknown>>(sql`
    with ranked as (
      select distinct on (t.id) t.id, t.tenant_id, t.tenant_slot, a.job_id, a.deferrals, a.delay_ms,
        case when t.tenant_slot is null
          then row_number() over (partition by t.tenant_id, t.tenant_slot is null order by t.created_at, t.id) end as need
      from tasks as t
      join unnest(
        ${ids}::text[],
        ${sql.param(requests.map((r) => r.jobId))}::text[],
        ${sql.param(requests.map((r) => r.deferrals + 1))}::int[],
        ${sql.param(requests.map((r) => deferralDelayMs(r.deferrals)))}::int[]
      ) as a(task_id, job_id, deferrals, delay_ms) on a.task_id = t.id
      where t.id = any(${ids}::text[]) and t.status in ${[...open]} and t.deadline_at > ${at}::timestamptz
        and t.provider_family = any(${sql.param(families)}::text[])
        and (t.execution_token = a.job_id or (t.execution_token is null and t.status = 'queued'))
      order by t.id, a.job_id
    ), claims as (
      select r.id, r.job_id, r.deferrals, r.delay_ms, coalesce(r.tenant_slot, (
        select s.slot from generate_series(${slots}::int, 1, -1) as s(slot)
        where not exists (select 1 from tasks as holder where holder.tenant_id = r.tenant_id and holder.tenant_slot = s.slot)
        offset r.need - 1 limit 1)) as slot
      from ranked as r
    ), deferred_jobs as (
      insert into graphile_worker._private_jobs (task_id, payload, run_at, max_attempts, priority)
      select (select id from graphile_worker._private_tasks where identifier = 'execute_task'),
             json_build_object('task_id', c.id, 'deferrals', c.deferrals),
             ${at}::timestamptz + c.delay_ms * interval '1 millisecond',
             ${sql.raw(String(DEFAULT_MAX_ATTEMPTS))},
             ${DEFERRED_PRIORITY}::int
      from claims as c where c.slot is null
      returning id, payload->>'task_id' as task_id
    )
    update tasks set
      ${status.assignment},
      started_at = case when c.slot is null then started_at else coalesce(started_at, ${at}::timestamptz) end,
      attempts = attempts + case when c.slot is not null and status = 'queued' then 1 else 0 end,
      progress = case when c.slot is null then progress
        else jsonb_build_object('percent', 10, 'stage', 'submitted', 'message', 'sent to ' || resolved_model) end,
      tenant_slot = c.slot,
      tenant_slot_until = case when c.slot is null then null else ${until}::timestamptz end,
      execution_token = coalesce(d.id::text, c.job_id)
    from claims as c left join deferred_jobs as d on d.task_id = c.id
    where tasks.id = c.id and ${status.guard}
      and (tasks.execution_token = c.job_id or (tasks.execution_token is null and tasks.status = 'queued'))
    returning tasks.*, c.job_id as asked_by, c.slot is null as deferred`);
  return rows.map((raw) => {
    const identity = { askedBy: text(raw, "asked_by", STATEMENT), taskId: text(raw, "id", STATEMENT) };
    return boolean(raw, "deferred", STATEMENT) ? { ...identity, deferred: true } : { ...identity, deferred: false, row: taskRowOf(raw) };
  });
}
