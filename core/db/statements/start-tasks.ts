import { sql } from "drizzle-orm";
import { transitionStatus } from "../task-state-machine.js";
import { taskRowOf, type TaskRow } from "../task-rows.js";
import type { VendorFamily } from "../../vendor-families.js";
import type { TransitionsDb } from "../client.js";
import { oneWriteTransaction } from "../one-write-transaction.js";
import { DEFAULT_MAX_ATTEMPTS } from "./add-job.js";
import { boolean, text } from "./row-parsing.js";
import { GRAPHILE_JOBS_TABLE, GRAPHILE_TASKS_TABLE } from "./graphile-jobs.js";

// One execute job asking for a task to start: the job's graphile-worker id, the task it was enqueued for (the
// task it names in its payload), and how often it was parked already.
export interface StartRequest {
  taskId: string;
  jobId: string;
  deferrals: number;
}

// What the statement did for one job: started a task (the row as it now is; not always the task the job was
// enqueued for), parked the job (work waits that an operator's limit holds back: a new job asks again later), or
// neither (nothing waits that this process can run).
export type StartedRow = { askedBy: string } & ({ kind: "started"; row: TaskRow } | { kind: "parked" } | { kind: "none" });

// What a start takes of the workers' fair share, which its caller sets (core/tasks/tenant-slots.ts): how long a
// started task holds its worker unless its job gives it back, and the priority and delay of a parked job's next ask,
// by how often it was parked already.
export interface StartPolicy {
  leaseMs: number;
  parkedPriority: number;
  parkedDelayMs: (deferrals: number) => number;
}

const STATEMENT = "start-tasks";
// Every start statement of every worker takes this lock for its transaction: each sees the starts before it, so
// the shares and limits it counts are exact and no two statements choose the same task.
const START_LOCK = 0x73_76_63_73; // "svcs"

// The state machine's `start` (core/db/task-state-machine.ts) for a group of execute jobs. A job's graphile-worker
// id that a task names as its `execution_token` (it started the task before its worker died, or a retry was handed
// the task) starts that task again. Every other job is a token for "the fairest waiting task": of the tenants with
// queued tasks this process has adapters for, the one whose turn comes first — (workers it holds now + the task's
// place in its own queue) / its weight — then the oldest; a tenant's next tasks take the turns after. A task whose
// tenant, API key or vendor family is at the running limit an operator set (running_limits) waits and others go
// first. Admission enqueues one job per task, so a token finds a task as long as tasks wait; one that finds none
// while limits hold tasks back is parked: a new execute job asks again after a short delay, and only then, as no
// worker may stay idle behind it otherwise. The parked job is written into graphile-worker's table by this
// statement (docs/workarounds.md #6). Tasks that start are marked running (an attempt counted when they were
// queued), hold a worker until `policy.leaseMs` from now unless their job gives it back, and name the job.
export async function startTasks(
  db: TransitionsDb,
  requests: readonly StartRequest[],
  families: readonly VendorFamily[],
  policy: StartPolicy,
  now: Date,
): Promise<StartedRow[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + policy.leaseMs).toISOString();
  const start = transitionStatus("start");
  // The lock, then the start, in one write (core/db/one-write-transaction.ts). JIT off for the transaction: with a
  // large tasks table the planner's cost passes jit_above_cost, and compiling the statement's 200 expressions took
  // 190 ms of every start (to run it takes 2 ms).
  const [, rows = []] = await oneWriteTransaction(db, [
    sql`select pg_advisory_xact_lock(${START_LOCK}), set_config('jit', 'off', true)`,
    sql`
    with recursive asked as (
      select a.job_id, a.hint, a.deferrals, a.delay_ms, a.ord
      from unnest(
        ${sql.param(requests.map((r) => r.jobId))}::text[],
        ${sql.param(requests.map((r) => r.taskId))}::text[],
        ${sql.param(requests.map((r) => r.deferrals + 1))}::int[],
        ${sql.param(requests.map((r) => policy.parkedDelayMs(r.deferrals)))}::int[]
      ) with ordinality as a(job_id, hint, deferrals, delay_ms, ord)
    ), held_by_asking as materialized (
      -- Found by the token alone: with the other conditions beside it, the planner also read the open tasks' deadline
      -- index, thousands of entries, to intersect with a token that matches nothing.
      select t.id, t.execution_token, t.status, t.deadline_at, t.provider_family from tasks as t
      where t.execution_token = any(array(select job_id from asked))
    ), resumed as (
      select t.id, t.execution_token as job_id from held_by_asking as t
      where t.status in ('queued', 'running') and t.deadline_at > ${at}::timestamptz and t.provider_family = any(${sql.param(families)}::text[])
    ), free as (
      select a.*, row_number() over (order by a.ord) as k from asked as a
      where not exists (select 1 from resumed as r where r.job_id = a.job_id)
    ), room as (
      select l.scope, l.subject, l.max_running - (case l.scope
        when 'family' then (select count(*) from tasks as t where t.status = 'running' and t.provider_family = l.subject)
        when 'key' then (select count(*) from tasks as t where t.status = 'running' and t.api_key_id = l.subject)
        else (select count(*) from tasks as t where t.status = 'running' and t.tenant_id = l.subject) end) as room
      from running_limits as l where l.max_running is not null
    ), waiting_tenants(tenant_id) as (
      (select t.tenant_id from tasks as t where t.status = 'queued' and t.execution_token is null order by t.tenant_id limit 1)
      union all
      select (select t.tenant_id from tasks as t where t.status = 'queued' and t.execution_token is null and t.tenant_id > w.tenant_id
              order by t.tenant_id limit 1)
      from waiting_tenants as w where w.tenant_id is not null
    ), tenant_shares as materialized (
      -- Counted once per tenant, not once per candidate task.
      select w.tenant_id, coalesce(h.held, 0) as held, coalesce(weights.weight, 1) as weight,
        greatest(coalesce(tenant_room.room, ${sql.raw(String(2 ** 31 - 1))}), 0) as room
      from waiting_tenants as w
      left join room as tenant_room on tenant_room.scope = 'tenant' and tenant_room.subject = w.tenant_id
      left join lateral (select count(*) as held from tasks as t where t.tenant_id = w.tenant_id and t.tenant_slot_until is not null) as h on true
      left join running_limits as weights on weights.scope = 'tenant' and weights.subject = w.tenant_id
      where w.tenant_id is not null
    ), candidates as (
      select c.id, c.provider_family, c.api_key_id, c.created_at, (w.held + c.place)::float8 / w.weight as turn
      from tenant_shares as w
      cross join lateral (
        select t.id, t.provider_family, t.api_key_id, t.created_at, row_number() over (order by t.created_at, t.id) as place
        from tasks as t
        where t.tenant_id = w.tenant_id and t.status = 'queued' and t.execution_token is null
          and t.deadline_at > ${at}::timestamptz and t.provider_family = any(${sql.param(families)}::text[])
          and not exists (select 1 from room as r where r.room <= 0
            and ((r.scope = 'family' and r.subject = t.provider_family) or (r.scope = 'key' and r.subject = t.api_key_id)))
        order by t.created_at, t.id
        limit least((select count(*) from free), w.room)
      ) as c
    ), placed as (
      select c.*,
        row_number() over (partition by c.provider_family order by c.turn, c.created_at, c.id) as family_place,
        row_number() over (partition by c.api_key_id order by c.turn, c.created_at, c.id) as key_place
      from candidates as c
    ), chosen as (
      select p.id, p.turn, p.created_at from placed as p
      where not exists (select 1 from room as r where r.scope = 'family' and r.subject = p.provider_family and p.family_place > r.room)
        and not exists (select 1 from room as r where r.scope = 'key' and r.subject = p.api_key_id and p.key_place > r.room)
      order by p.turn, p.created_at, p.id
      limit (select count(*) from free)
    ), locked as (
      -- By primary key alone, then checked: with the waiting-task conditions in this WHERE, a stale estimate of how
      -- few tasks wait made the planner walk the whole waiting index instead. A locked row reads as its newest
      -- version, so the check after the lock sees a cancel committed meanwhile.
      select t.id, t.status, t.execution_token from tasks as t
      where t.id = any(array(select id from chosen))
      for update skip locked
    ), paired as (
      select c.id, f.job_id
      from (select ch.id, row_number() over (order by ch.turn, ch.created_at, ch.id) as k from chosen as ch
            where ch.id in (select l.id from locked as l where l.status = 'queued' and l.execution_token is null)) as c
      join free as f on f.k = c.k
    ), starting as (
      select id, job_id from paired union all select id, job_id from resumed
    ), waiting_left as (
      select exists (
        select 1 from tasks as t
        where t.status = 'queued' and t.execution_token is null and t.deadline_at > ${at}::timestamptz
          and t.provider_family = any(${sql.param(families)}::text[]) and t.id not in (select id from starting)
      ) as waiting
    ), parked as (
      insert into ${sql.raw(GRAPHILE_JOBS_TABLE)} (task_id, payload, run_at, max_attempts, priority)
      select (select id from ${sql.raw(GRAPHILE_TASKS_TABLE)} where identifier = 'execute_task'),
             json_build_object('task_id', f.hint, 'deferrals', f.deferrals),
             ${at}::timestamptz + f.delay_ms * interval '1 millisecond',
             ${sql.raw(String(DEFAULT_MAX_ATTEMPTS))},
             ${policy.parkedPriority}::int
      from free as f
      where f.k > (select count(*) from paired) and (select waiting from waiting_left)
    ), updated as (
      -- By primary key, whatever the planner guesses of how many start: joined to \`starting\` instead, a guess of
      -- thousands (many tasks held by jobs, as after a restore) turned this into a scan of the whole table.
      update tasks set
        ${start.assignment},
        started_at = coalesce(started_at, ${at}::timestamptz),
        attempts = attempts + case when status = 'queued' then 1 else 0 end,
        progress = jsonb_build_object('percent', 10, 'stage', 'submitted', 'message', 'sent to ' || resolved_model),
        tenant_slot_until = ${until}::timestamptz,
        execution_token = (select s.job_id from starting as s where s.id = tasks.id)
      where tasks.id = any(array(select id from starting)) and ${start.guard}
      returning tasks.*, tasks.execution_token as started_by
    )
    select a.job_id as asked_by, (select waiting from waiting_left) and exists (select 1 from free as f where f.job_id = a.job_id) as parked, u.*
    from asked as a left join updated as u on u.started_by = a.job_id`,
  ]);
  return rows.map((raw) => {
    const askedBy = text(raw, "asked_by", STATEMENT);
    if (raw.id !== null) return { askedBy, kind: "started", row: taskRowOf(raw) };
    return { askedBy, kind: boolean(raw, "parked", STATEMENT) ? "parked" : "none" };
  });
}
