import type { Capability, Prepared } from "../capabilities/types.js";
import type { AdmittedTasks } from "../db/statements/admit-tasks.js";
import { inputSchemaOf } from "../capabilities/table.js";
import { splitInlineMedia } from "../media/inline.js";
import type { StoredUsage } from "./envelope.js";
import { deprecationWarning } from "../retirements/retirement.js";
import { ADMITTED_STATUS } from "../db/task-state-machine.js";
import { taskRecordOf, type TaskRow } from "../db/task-rows.js";

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
  // The API key the request came with, if any (a limit on one key's running tasks counts it).
  apiKeyId: string | null;
  now: Date;
}

// The quote as a task stores it (the `quote` column), its amounts as strings.
export function storedQuote(prepared: Prepared): StoredUsage {
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
    status: ADMITTED_STATUS,
    model: prepared.requestedModel,
    resolvedModel: prepared.resolvedModel,
    modelSelectionReason: prepared.selectionReason,
    providerFamily: prepared.family,
    metadata: input.metadata ?? {},
    input,
    progress: { percent: 0, stage: "queued", message: "waiting for a worker" },
    output: null,
    warnings: prepared.deprecation ? [deprecationWarning(prepared.deprecation)] : [],
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
    tenantSlot: null,
    tenantSlotUntil: null,
    apiKeyId: fields.apiKeyId,
    executionToken: null,
    createdAt: now,
    startedAt: null,
    deadlineAt: new Date(now.getTime() + capability.deadlineSeconds * 1000),
    completedAt: null,
    cancelRequestedAt: null,
    cancelReason: null,
    artifactsExpiredAt: null,
  };
}

// The tasks as the admission's write statement stores them (core/db/statements/admit-tasks.ts): records by column
// name, each with references in place of its data URIs, which go to task_inline_media (core/media/inline.ts).
export function storedTaskRecords(rows: readonly TaskRow[]): Pick<AdmittedTasks, "records" | "inlineMedia"> {
  const inlineMedia: { task_id: string; pointer: string; data_uri: string }[] = [];
  const records = rows.map((row) => {
    const split = splitInlineMedia(inputSchemaOf(row.capability), row.input as Record<string, unknown>);
    for (const media of split.inline) inlineMedia.push({ task_id: row.id, pointer: media.pointer, data_uri: media.dataUri });
    return taskRecordOf(split.inline.length > 0 ? { ...row, input: split.input } : row);
  });
  return { records, inlineMedia };
}
