import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Side } from "../paired.js";
import type { RunningService } from "../service.js";
import { SETTINGS, SPEECH_BODY } from "../settings.js";

// Admission and reads over HTTP at the 50 connections, as the sides of paired measurements. Create runs
// with no worker, so it measures the admission alone (idempotency claim, task, credit hold, job) as the INSERT
// reference measures one insert.

const READ_TASKS = 1000;

export function bearer(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}` };
}

// Every request under a key of its own, so each one is a new admission.
export function uniqueKeys(): () => string {
  const prefix = randomBytes(6).toString("hex");
  let n = 0;
  return () => `${prefix}-${n++}`;
}

export function createSide(service: RunningService, apiKey: string): Side {
  const key = uniqueKeys();
  const headers = { ...bearer(apiKey), "content-type": "application/json" };
  return {
    pid: service.rest.pid,
    load: {
      url: service.restUrl,
      connections: SETTINGS.connections,
      expectStatus: 202,
      next: () => ({ method: "POST", path: "/v1/audio/speech", headers: { ...headers, "idempotency-key": key() }, body: SPEECH_BODY }),
    },
  };
}

export async function readSide(service: RunningService, tenantId: string, apiKey: string): Promise<Side> {
  const rows = await service.core.db.execute<{ id: string }>(
    sql`select id from tasks where tenant_id = ${tenantId} order by id limit ${READ_TASKS}`,
  );
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) throw new Error("no tasks to read: run the create load first");
  let i = 0;
  return {
    pid: service.rest.pid,
    load: {
      url: service.restUrl,
      connections: SETTINGS.connections,
      expectStatus: 200,
      next: () => ({ method: "GET", path: `/v1/tasks/${ids[i++ % ids.length]}`, headers: bearer(apiKey) }),
    },
  };
}

// The speech tasks admitted by the create load would keep a worker busy for minutes; the later phases start from
// an empty queue. Their jobs are marked permanently failed (graphile-worker's own operation); the tasks stay queued,
// each named as held by a job of its own that never runs, since any execute job starts any waiting task
// (core/db/statements/start-tasks.ts): left waiting, they would take the later phases' turns. Distinct names, as
// job ids are: one name on them all would tell the planner that a job holds thousands of tasks.
export async function discardQueuedJobs(service: RunningService): Promise<void> {
  await service.core.db.execute(sql`
    select count(*) from graphile_worker.permanently_fail_jobs(
      array(select id from graphile_worker.jobs where task_identifier = 'execute_task' and locked_at is null),
      'benchmark: admission measured alone')`);
  await holdDiscardedTasks(service);
}

// The tasks whose jobs the benchmark discarded, each named as held by a job of its own that never runs.
export async function holdDiscardedTasks(service: RunningService): Promise<void> {
  await service.core.db.execute(sql`update tasks set execution_token = 'discarded by the benchmark: ' || id where status = 'queued' and execution_token is null`);
}
