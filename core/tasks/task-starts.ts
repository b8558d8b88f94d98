import { sql } from "drizzle-orm";
import { BatchedLookup } from "../db/batched-lookup.js";
import type { Db } from "../db/client.js";
import type { Clock } from "../clock.js";
import type { VendorFamily } from "../vendor-families.js";
import { TASK_TRANSITIONS } from "./state.js";
import { taskRowOf, type TaskRow } from "./task-rows.js";
import { DEFERRED_PRIORITY, deferralDelayMs, retryingSlotRaces, SLOT_LEASE_MS } from "./tenant-slots.js";

type RawRow = Record<string, unknown>;

// One execute job asking to start its task: the job's graphile-worker id, and how often it was deferred already.
export interface StartRequest {
  taskId: string;
  jobId: string;
  deferrals: number;
}

// What a start answers: the task as started, the task deferred (every slot of its tenant is taken; the job
// enqueued to try again at its time has been handed the task), or null when the task cannot start at all.
export type StartOutcome = { kind: "started"; row: TaskRow } | { kind: "deferred" } | null;

// The tasks whose execute jobs start in one turn of the event loop start in one statement (core/db/
// batched-lookup.ts): the worker's jobs arrive in batches (its local queue) and free up together (endings commit in
// groups), so most starts share one round trip and one commit. It is the state machine's `start`, written out for
// the attempt count, the deadline, the tenant's slots and the job allowed to run the execution: a task still open
// and within its deadline, of a family this process has an adapter for, asked by the job it belongs to (the
// admission's while none has started it, otherwise the one named by `execution_token`), is marked running (counted
// as an attempt when it was queued; one found running was started by this same job before its worker died) if its
// tenant has a free slot (core/tasks/tenant-slots.ts; the highest first, which deliveries leave to executions), the
// oldest tasks of a tenant first. A task whose tenant has none is deferred by the same UPDATE: a new execute job is
// added at a later run_at and a lower priority and made the task's token, so only it can start the task, even if
// the asking job runs again after a crash. One UPDATE for both and few steps: Postgres plans this statement afresh
// for every batch (its parameters are arrays), and planning costs more than running it.
export class TaskStarts {
  private readonly starts: BatchedLookup<RawRow>;
  private readonly asked = new Map<string, StartRequest>();

  // `db` runs the statement (prepared, core/db/client.ts `transitions`); `families` are those this process has
  // adapters for; `slots` is each tenant's number of slots; the clock gives the group its start time.
  constructor(
    db: Db,
    private readonly families: () => readonly VendorFamily[],
    clock: Clock,
    slots: number,
  ) {
    this.starts = new BatchedLookup(async (keys) => {
      const requests = keys.map((key) => this.asked.get(key) as StartRequest);
      for (const key of keys) this.asked.delete(key);
      const now = clock();
      const at = now.toISOString();
      const until = new Date(now.getTime() + SLOT_LEASE_MS).toISOString();
      const { from, to } = TASK_TRANSITIONS.start;
      const ids = sql.param(requests.map((r) => r.taskId));
      const rows = await retryingSlotRaces(() =>
        db.execute<RawRow>(sql`
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
            where t.id = any(${ids}::text[]) and t.status in ${[...from]} and t.deadline_at > ${at}::timestamptz
              and t.provider_family = any(${sql.param(families())}::text[])
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
                   25,
                   ${DEFERRED_PRIORITY}::int
            from claims as c where c.slot is null
            returning id, payload->>'task_id' as task_id
          )
          update tasks set
            status = case when c.slot is null then tasks.status else ${to} end,
            started_at = case when c.slot is null then started_at else coalesce(started_at, ${at}::timestamptz) end,
            attempts = attempts + case when c.slot is not null and status = 'queued' then 1 else 0 end,
            progress = case when c.slot is null then progress
              else jsonb_build_object('percent', 10, 'stage', 'submitted', 'message', 'sent to ' || resolved_model) end,
            tenant_slot = c.slot,
            tenant_slot_until = case when c.slot is null then null else ${until}::timestamptz end,
            execution_token = coalesce(d.id::text, c.job_id)
          from claims as c left join deferred_jobs as d on d.task_id = c.id
          where tasks.id = c.id and tasks.status in ${[...from]}
            and (tasks.execution_token = c.job_id or (tasks.execution_token is null and tasks.status = 'queued'))
          returning tasks.*, c.job_id as asked_by, c.slot is null as deferred`),
      );
      return new Map(rows.map((row) => [keyOf(row.id as string, row.asked_by as string), row]));
    });
  }

  async start(request: StartRequest): Promise<StartOutcome> {
    if (this.families().length === 0) return null;
    const key = keyOf(request.taskId, request.jobId);
    this.asked.set(key, request);
    const raw = await this.starts.get(key);
    if (!raw) return null;
    return raw.deferred === true ? { kind: "deferred" } : { kind: "started", row: taskRowOf(raw) };
  }
}

const keyOf = (taskId: string, jobId: string) => `${taskId} ${jobId}`;
