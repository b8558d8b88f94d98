import { sql } from "drizzle-orm";
import { bearer, uniqueKeys } from "../phases/admission.js";
import type { RunningService } from "../service.js";
import { startHosts } from "../soak/hosts.js";
import { until } from "../stats.js";

// The tasks the seed copies: real ones, made by the service over HTTP and run to their end by its worker against
// the emulator, so that every row the seed writes (the task with its input, output, usage and quote, its ledger
// rows, idempotency key, events and artifacts) has exactly the shape the service gives it. Their mix is the seeded
// database's: mostly successes across the capabilities, some failures (refunded), a few cancellations.

export interface TemplateSet {
  tenantId: string;
  apiKeyId: string;
  // One row per template task, each table's rows as Postgres' to_jsonb of them.
  tasks: Record<string, unknown>[];
  ledger: Record<string, unknown>[];
  keys: Record<string, unknown>[];
  events: Record<string, unknown>[];
  artifacts: Record<string, unknown>[];
}

interface Request {
  path: string;
  body: Record<string, unknown>;
}

const SPEECH: Request = { path: "/v1/audio/speech", body: { voice: "en_female_aria", input: "Your order has shipped and arrives on Tuesday." } };
const ENHANCE: Request = { path: "/v1/videos/prompts/enhance", body: { prompt: "a red kite over a windy beach", duration: 5, aspect_ratio: "16:9" } };
const IMAGE: Request = { path: "/v1/images/generations", body: { model: "vendorE-image-2", prompt: "A lighthouse on a cliff at dawn, watercolor" } };
const MUSIC: Request = { path: "/v1/music/text-to-music", body: { model: "auto", prompt: "Upbeat synth-pop with a driving bassline" } };
const VIDEO: Request = { path: "/v1/videos/text-to-video", body: { model: "vendorA-h3", prompt: "a slow pan across a mountain lake at dawn" } };

// Counts per kind: 17 successes, 2 failures, 1 cancellation (85 %, 10 %, 5 %).
const SUCCEEDED_MIX: [Request, number][] = [
  [SPEECH, 5],
  [ENHANCE, 3],
  [IMAGE, 3],
  [MUSIC, 2],
  [VIDEO, 2],
];
const UNDERSTANDING_SUCCEEDED = 2;

const TEMPLATE_CREDITS = "100000";

async function create(service: RunningService, apiKey: string, key: string, request: Request): Promise<string> {
  const response = await fetch(`${service.restUrl}${request.path}`, {
    method: "POST",
    headers: { ...bearer(apiKey), "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify(request.body),
  });
  const body = (await response.json()) as { task_id?: string };
  if (response.status !== 202 || !body.task_id) throw new Error(`template ${request.path}: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.task_id;
}

async function scriptFault(service: RunningService, family: string): Promise<void> {
  const response = await fetch(`${service.emulatorUrl}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ family, kind: "safety", times: 1 }),
  });
  if (response.status !== 201) throw new Error(`the emulator refused a fault: ${response.status}`);
}

// Needs a service started with OUTBOUND_ALLOW_LOOPBACK_HTTP (the understanding tasks fetch an image from this
// process) and returns with its worker stopped.
export async function makeTemplates(service: RunningService): Promise<TemplateSet> {
  const tenant = await service.newTenant(TEMPLATE_CREDITS);
  const key = uniqueKeys();
  const hosts = await startHosts();
  try {
    // Canceled while queued: created with no worker running.
    await service.stopWorker();
    const canceled = await create(service, tenant.apiKey, key(), SPEECH);
    const cancel = await fetch(`${service.restUrl}/v1/tasks/${canceled}/cancel`, { method: "POST", headers: bearer(tenant.apiKey) });
    if (cancel.status !== 200) throw new Error(`template cancel: HTTP ${cancel.status}`);

    await service.startWorker();
    const understanding: Request = {
      path: "/v1/images/responses",
      body: { model: "vendorA-M3", prompt: "What colour is this?", images: [{ type: "url", url: hosts.imageUrl }], callback_url: hosts.hookUrl("template") },
    };
    const requests = [...SUCCEEDED_MIX.flatMap(([request, count]) => Array.from({ length: count }, () => request))];
    for (let i = 0; i < UNDERSTANDING_SUCCEEDED; i++) requests.push(understanding);
    await Promise.all(requests.map((request) => create(service, tenant.apiKey, key(), request)));
    await awaitEnded(service, tenant.tenantId);

    // Failures: a vendor's safety refusal, each scripted on its own so that no other task takes it.
    for (const [request, family] of [
      [IMAGE, "vendorE"],
      [SPEECH, "vendorA"],
    ] as const) {
      await scriptFault(service, family);
      await create(service, tenant.apiKey, key(), request);
      await awaitEnded(service, tenant.tenantId);
    }
    await service.stopWorker();
  } finally {
    await hosts.close();
  }
  return readTemplates(service, tenant.tenantId);
}

async function awaitEnded(service: RunningService, tenantId: string): Promise<void> {
  await until(
    "the template tasks to end",
    async () => {
      const rows = await service.core.db.execute<{ n: number }>(sql`
        select count(*)::int as n from tasks
         where tenant_id = ${tenantId} and (status in ('queued', 'running') or (callback_state->>'status') in ('pending', 'retrying'))`);
      return rows[0]?.n === 0;
    },
    120_000,
    100,
  );
}

async function readTemplates(service: RunningService, tenantId: string): Promise<TemplateSet> {
  const rowsOf = async (query: ReturnType<typeof sql>) => [...(await service.core.db.execute<{ row: Record<string, unknown> }>(query))].map((r) => r.row);
  const [keyRow] = await service.core.db.execute<{ id: string }>(sql`select id from api_keys where tenant_id = ${tenantId}`);
  const outcomes = await service.core.db.execute<{ status: string; n: number }>(sql`
    select status, count(*)::int as n from tasks where tenant_id = ${tenantId} group by status`);
  const byStatus = Object.fromEntries(outcomes.map((r) => [r.status, r.n]));
  if (byStatus.succeeded !== 17 || byStatus.failed !== 2 || byStatus.canceled !== 1) {
    throw new Error(`the template tasks did not end as scripted: ${JSON.stringify(byStatus)}`);
  }
  return {
    tenantId,
    apiKeyId: keyRow?.id ?? "",
    tasks: await rowsOf(sql`select to_jsonb(t) as row from tasks t where tenant_id = ${tenantId} order by id`),
    ledger: await rowsOf(sql`select to_jsonb(l) as row from credit_ledger l where tenant_id = ${tenantId} and task_id is not null order by id`),
    keys: await rowsOf(sql`select to_jsonb(k) as row from idempotency_keys k where tenant_id = ${tenantId}`),
    events: await rowsOf(sql`
      select to_jsonb(e) as row from task_events e join tasks t on t.id = e.task_id where t.tenant_id = ${tenantId} order by e.seq`),
    artifacts: await rowsOf(sql`select to_jsonb(a) as row from artifacts a where tenant_id = ${tenantId} order by id`),
  };
}
