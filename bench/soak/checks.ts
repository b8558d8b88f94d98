import { sql } from "drizzle-orm";
import type { Core } from "../../core/index.js";
import { inputForVendor, type ResolvedMediaMap } from "../../core/tasks/media-inputs.js";
import { taskRowOf } from "../../core/db/task-rows.js";
import { percentile } from "../stats.js";
import type { Tenant } from "./clients.js";
import type { Delivery } from "./hosts.js";

// What the soak proves once its load has stopped and its work has drained. Each check answers the anomalies it
// found (none when all is well) and the figures it measured.

export interface Check {
  name: string;
  anomalies: string[];
  figures?: string;
}

// Every task ended, and ended once: a terminal status, reached by exactly one status change (task_events records
// each change of a task's status, written by a trigger in the statement that made it).
async function endedOnce(core: Core): Promise<Check> {
  const rows = await core.db.execute<{ id: string; status: string; endings: number }>(sql`
    select t.id, t.status, count(e.seq) filter (where e.kind = 'status' and e.status in ('succeeded', 'failed', 'canceled'))::int as endings
    from tasks as t left join task_events as e on e.task_id = t.id
    group by t.id, t.status
    having t.status in ('queued', 'running')
        or count(e.seq) filter (where e.kind = 'status' and e.status in ('succeeded', 'failed', 'canceled')) <> 1`);
  return { name: "every task ended exactly once", anomalies: rows.map((r) => `task ${r.id}: ${r.status}, ${r.endings} endings`) };
}

// Each task's hold taken once and settled once, for the amounts the task says it was charged and refunded.
async function settledOnce(core: Core): Promise<Check> {
  const rows = await core.db.execute<{
    id: string;
    status: string;
    held: string;
    net: string;
    holds: number;
    hold_amount: string | null;
    settlements: number;
    captured: string | null;
    released: string | null;
  }>(sql`
    select t.id, t.status, t.held_micro::text as held, (t.charged_micro - t.refunded_micro)::text as net,
      count(l.id) filter (where l.kind = 'hold')::int as holds,
      sum(l.amount) filter (where l.kind = 'hold')::text as hold_amount,
      count(l.id) filter (where l.kind in ('capture', 'release', 'charge'))::int as settlements,
      sum(l.amount) filter (where l.kind = 'capture')::text as captured,
      sum(l.amount) filter (where l.kind = 'release')::text as released
    from tasks as t left join credit_ledger as l on l.task_id = t.id
    where t.held_micro > 0
    group by t.id`);
  const anomalies: string[] = [];
  for (const r of rows) {
    const what = `task ${r.id} (${r.status}, held ${r.held}, net ${r.net})`;
    if (r.holds !== 1 || r.hold_amount !== r.held) anomalies.push(`${what}: ${r.holds} holds of ${r.hold_amount}`);
    if (r.settlements !== 1) anomalies.push(`${what}: ${r.settlements} settlements`);
    else if (BigInt(r.captured ?? "0") !== BigInt(r.net)) anomalies.push(`${what}: captured ${r.captured}`);
    else if (r.captured === null && r.released !== r.held) anomalies.push(`${what}: released ${r.released}`);
    if (r.status !== "succeeded" && BigInt(r.net) !== 0n) anomalies.push(`${what}: ${r.status} but not refunded in full`);
  }
  return { name: "every hold settled or refunded exactly once", anomalies, figures: `${rows.length} holds` };
}

// Each tenant's account to the micro-credit: granted = available + held + spent, nothing held once every task
// ended, spent the sum of its captures and of what its tasks say they cost, granted the sum of its grants.
async function ledgersExact(core: Core): Promise<Check> {
  const rows = await core.db.execute<{
    tenant_id: string;
    available: string;
    held: string;
    spent: string;
    granted: string;
    grants: string;
    captures: string;
    task_net: string;
  }>(sql`
    select a.tenant_id, a.available::text, a.held::text, a.spent::text, a.granted::text,
      coalesce((select sum(amount) from credit_ledger where tenant_id = a.tenant_id and kind = 'grant'), 0)::text as grants,
      coalesce((select sum(amount) from credit_ledger where tenant_id = a.tenant_id and kind = 'capture'), 0)::text as captures,
      coalesce((select sum(charged_micro - refunded_micro) from tasks where tenant_id = a.tenant_id), 0)::text as task_net
    from credit_accounts as a`);
  const anomalies: string[] = [];
  for (const r of rows) {
    const [available, held, spent, granted] = [r.available, r.held, r.spent, r.granted].map(BigInt) as [bigint, bigint, bigint, bigint];
    const account = `tenant ${r.tenant_id} (available ${available}, held ${held}, spent ${spent}, granted ${granted})`;
    if (granted !== available + held + spent) anomalies.push(`${account}: granted ≠ available + held + spent`);
    if (held !== 0n) anomalies.push(`${account}: still holding credits with every task ended`);
    if (spent !== BigInt(r.captures) || spent !== BigInt(r.task_net)) anomalies.push(`${account}: captures ${r.captures}, tasks' net ${r.task_net}`);
    if (granted !== BigInt(r.grants)) anomalies.push(`${account}: grants ${r.grants}`);
  }
  return { name: "each tenant's ledger exact to the micro-credit", anomalies, figures: `${rows.length} accounts` };
}

// A task's callback event keeps one event_id through every attempt and redelivery, and says how the task ended.
async function eventsOnce(core: Core, deliveries: readonly Delivery[]): Promise<Check> {
  const byTask = new Map<string, Delivery[]>();
  for (const delivery of deliveries) byTask.set(delivery.taskId, [...(byTask.get(delivery.taskId) ?? []), delivery]);
  const statuses = new Map(
    (await core.db.execute<{ id: string; status: string }>(sql`select id, status from tasks where callback_url is not null`)).map((r) => [r.id, r.status]),
  );
  const anomalies: string[] = [];
  for (const [taskId, seen] of byTask) {
    const ids = new Set(seen.map((d) => d.eventId));
    if (ids.size !== 1) anomalies.push(`task ${taskId}: delivered under ${ids.size} event ids (${[...ids].join(", ")})`);
    const ended = statuses.get(taskId);
    if (seen.some((d) => d.eventType !== `task.${ended}`)) anomalies.push(`task ${taskId}: ${ended}, delivered as ${seen.map((d) => d.eventType).join(", ")}`);
  }
  const attempts = deliveries.length;
  return { name: "no event delivered under two event ids", anomalies, figures: `${byTask.size} events, ${attempts} deliveries seen` };
}

// No task refunded while its vendor job succeeded: each refunded task that reached its vendor's job (a provider
// reference) is looked up at the vendor, which must not call it done. A job the service submitted again after a
// crash leaves the first one unknown to the task; the emulator's count of submissions is reported beside.
async function noRefundOfSuccess(core: Core): Promise<Check> {
  const rows = (
    await core.db.execute<Record<string, unknown>>(sql`select * from tasks where status in ('failed', 'canceled') and provider_ref is not null`)
  ).map(taskRowOf);
  const anomalies: string[] = [];
  for (const task of rows) {
    const adapter = core.providers.get(task.providerFamily);
    if (!adapter?.poll || !task.providerRef) continue;
    const input = inputForVendor(task, (task.resolvedMedia ?? {}) as ResolvedMediaMap, core.signer, core.clock());
    const request = { taskId: task.id, capability: task.capability, model: task.resolvedModel, input };
    const outcome = await adapter.poll(task.providerRef, request, AbortSignal.timeout(30_000)).catch(() => null);
    if (outcome?.status === "done") anomalies.push(`task ${task.id}: ${task.status} and refunded, its vendor job ${task.providerRef} succeeded`);
  }
  return { name: "no refund of a task whose vendor job succeeded", anomalies, figures: `${rows.length} refunded tasks with a vendor job looked up` };
}

export interface StartLatency {
  tenant: string;
  noisy: boolean;
  tasks: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

// Per tenant, admission to start (created_at to started_at) of the tasks that started.
export async function startLatencies(core: Core, tenants: readonly Tenant[]): Promise<StartLatency[]> {
  const rows = await core.db.execute<{ tenant_id: string; ms: number }>(sql`
    select tenant_id, extract(epoch from started_at - created_at)::float8 * 1000 as ms from tasks where started_at is not null`);
  return tenants.map((tenant) => {
    const values = rows.filter((r) => r.tenant_id === tenant.tenantId).map((r) => r.ms);
    return {
      tenant: tenant.name,
      noisy: tenant.noisy,
      tasks: values.length,
      p50Ms: percentile(values, 50),
      p99Ms: percentile(values, 99),
      maxMs: values.length > 0 ? Math.max(...values) : Number.NaN,
    };
  });
}

export async function runChecks(core: Core, deliveries: readonly Delivery[]): Promise<Check[]> {
  return [await endedOnce(core), await settledOnce(core), await ledgersExact(core), await eventsOnce(core, deliveries), await noRefundOfSuccess(core)];
}
