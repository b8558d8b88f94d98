import { getTableColumns } from "drizzle-orm";
import type postgres from "postgres";
import type { Capability, Prepared } from "../capabilities/types.js";
import type { AdmissionSql } from "../db/client.js";
import { tasks } from "../db/schema/index.js";
import type { StoredUsage } from "./envelope.js";
import type { TaskRow } from "./repository.js";

// A task as admission creates it, complete before it is stored: the admission batch inserts it without reading it
// back, and the 202 is rendered from this row (what a GET shows afterwards, key order of JSON objects aside).

export interface AdmittedTaskFields {
  id: string;
  tenantId: string;
  capability: Capability;
  input: Record<string, unknown> & { metadata?: Record<string, string>; callback_url?: string; callback_signing_key_id?: string };
  prepared: Prepared;
  idempotencyKey: string;
  surface: "rest" | "mcp";
  requestId: string;
  now: Date;
}

function storedQuote(prepared: Prepared): StoredUsage {
  return {
    counters: prepared.quote.counters,
    lines: prepared.quote.lines.map((l) => ({
      meter: l.meter,
      quantity: l.quantity.toString(),
      unit: l.unit,
      amount_micro: l.amountMicro.toString(),
    })),
    total_micro: prepared.quote.totalMicro.toString(),
  };
}

export function admittedTaskRow(fields: AdmittedTaskFields): TaskRow {
  const { capability, prepared, input, now } = fields;
  const hold = prepared.quote.totalMicro;
  return {
    id: fields.id,
    tenantId: fields.tenantId,
    capability: capability.id,
    workloadType: "model",
    status: "queued",
    model: prepared.requestedModel,
    resolvedModel: prepared.resolvedModel,
    modelSelectionReason: prepared.selectionReason,
    providerFamily: prepared.family,
    metadata: input.metadata ?? {},
    input,
    progress: { percent: 0, stage: "queued", message: "waiting for a worker" },
    output: null,
    warnings: [],
    error: null,
    quote: storedQuote(prepared),
    resolvedMedia: null,
    usage: null,
    billingMode: capability.billingMode,
    heldMicro: hold,
    chargedMicro: capability.billingMode === "prepaid" ? hold : 0n,
    refundedMicro: 0n,
    callbackUrl: input.callback_url ?? null,
    callbackSigningKeyId: input.callback_signing_key_id ?? null,
    callbackState: null,
    idempotencyKey: fields.idempotencyKey,
    surface: fields.surface,
    requestId: fields.requestId,
    providerRef: null,
    attempts: 0,
    createdAt: now,
    startedAt: null,
    deadlineAt: new Date(now.getTime() + capability.deadlineSeconds * 1000),
    completedAt: null,
    cancelRequestedAt: null,
    cancelReason: null,
  };
}

// Every column of the table by its property name, so the statement below names them all and a row object maps
// onto it whatever columns migrations add.
const COLUMNS = Object.entries(getTableColumns(tasks)).map(([property, column]) => ({ property, name: column.name }));
const INSERT_TASKS = (() => {
  const names = COLUMNS.map((c) => `"${c.name}"`).join(", ");
  return `insert into tasks (${names}) select ${names} from jsonb_populate_recordset(null::tasks, $1::jsonb)`;
})();

function record(row: TaskRow): Record<string, unknown> {
  const values = row as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const { property, name } of COLUMNS) {
    const value = values[property];
    out[name] = typeof value === "bigint" ? value.toString() : value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return out;
}

export async function insertTaskRows(sql: AdmissionSql, rows: readonly TaskRow[]): Promise<void> {
  await sql.unsafe(INSERT_TASKS, [sql.json(rows.map(record) as postgres.JSONValue)], { prepare: true });
}
