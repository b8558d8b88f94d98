import type { TemplateSet } from "./templates.js";

// The template tasks turned into what the seed's SQL copies: each row's text with the ids that a copy replaces
// (its task, tenant, API key, artifacts, idempotency key and request) as placeholders, and its times as offsets
// from the task's creation, so a copy lands anywhere in the year with the same durations.

export const MAX_ARTIFACTS_PER_TASK = 4;

export interface PreparedTemplate {
  // The task row (to_jsonb of it) without its times, ids as placeholders.
  task: string;
  times: Record<"started_at" | "deadline_at" | "completed_at" | "cancel_requested_at", number | null>;
  ledger: { kind: string; amount: string; note: string | null; by_key: boolean; offset_ms: number }[];
  key: { fingerprint: string; offset_ms: number } | null;
  events: { kind: string; status: string; progress: unknown; offset_ms: number }[];
  artifacts: { ord: number; row: string; offset_ms: number }[];
  // What the task's settlement spent: captured amounts count in the tenant's `spent`.
  captured: string;
}

export const PLACEHOLDERS = { task: "@TASK@", tenant: "@TENANT@", idempotencyKey: "@IDEMKEY@", request: "@REQUEST@" };
export const artifactPlaceholder = (ord: number) => `@ART${ord}@`;

const ms = (value: unknown) => new Date(value as string).getTime();

function replaceAll(text: string, pairs: [string, string][]): string {
  return pairs.reduce((acc, [from, to]) => acc.split(from).join(to), text);
}

export function prepareTemplates(set: TemplateSet): PreparedTemplate[] {
  return set.tasks.map((task) => {
    const id = task.id as string;
    const created = ms(task.created_at);
    const rowText = JSON.stringify(task);
    // A task's artifacts: its outputs (task_id) and the inputs it stored, which only its resolved media names.
    const artifacts = set.artifacts.filter((a) => a.task_id === id || rowText.includes(a.id as string));
    if (artifacts.length > MAX_ARTIFACTS_PER_TASK) throw new Error(`template ${id} has ${artifacts.length} artifacts`);
    const pairs: [string, string][] = [
      [id, PLACEHOLDERS.task],
      [set.tenantId, PLACEHOLDERS.tenant],
      [task.request_id as string, PLACEHOLDERS.request],
      ...artifacts.map((a, i): [string, string] => [a.id as string, artifactPlaceholder(i + 1)]),
    ];
    const timeless = Object.fromEntries(
      Object.entries(task).filter(([name]) => !["created_at", "started_at", "deadline_at", "completed_at", "cancel_requested_at"].includes(name)),
    );
    timeless.idempotency_key = PLACEHOLDERS.idempotencyKey;
    const offset = (name: string) => (task[name] === null ? null : ms(task[name]) - created);
    const ledger = set.ledger.filter((l) => l.task_id === id);
    const key = set.keys.find((k) => k.task_id === id);
    return {
      task: replaceAll(JSON.stringify(timeless), pairs),
      times: {
        started_at: offset("started_at"),
        deadline_at: offset("deadline_at"),
        completed_at: offset("completed_at"),
        cancel_requested_at: offset("cancel_requested_at"),
      },
      ledger: ledger.map((l) => ({
        kind: l.kind as string,
        amount: String(l.amount),
        note: (l.note as string | null) ?? null,
        by_key: l.api_key_id === set.apiKeyId,
        offset_ms: ms(l.created_at) - created,
      })),
      key: key ? { fingerprint: key.fingerprint as string, offset_ms: ms(key.created_at) - created } : null,
      events: set.events
        .filter((e) => e.task_id === id)
        .map((e) => ({ kind: e.kind as string, status: e.status as string, progress: e.progress, offset_ms: ms(e.created_at) - created })),
      artifacts: artifacts.map((a, i) => {
        const { created_at: _created, expired_at: _expired, ...rest } = a;
        return { ord: i + 1, row: replaceAll(JSON.stringify({ ...rest, task_id: a.task_id === null ? null : id }), pairs), offset_ms: ms(a.created_at) - created };
      }),
      captured: ledger
        .filter((l) => l.kind === "capture")
        .reduce((sum, l) => sum + BigInt(l.amount as number | string), 0n)
        .toString(),
    };
  });
}
