import { callbackFieldFailures, checkCallbackSigningKey } from "../callbacks/admission.js";
import { findCapability } from "../capabilities/table.js";
import type { Capability, Prepared } from "../capabilities/types.js";
import { holdCredits } from "../credits/ledger.js";
import { failure, invalidRequest, ServiceError, zodFailures } from "../errors/index.js";
import { claimIdempotencyKey, peekIdempotencyKey, recordIdempotencyKey } from "../idempotency/claim.js";
import { checkMediaAtAdmission } from "../media/admission.js";
import { requestFingerprint } from "../idempotency/fingerprint.js";
import { enqueueJob } from "../jobs/enqueue.js";
import type { Core } from "../runtime.js";
import { insertPendingVoice } from "../voices/clone-lifecycle.js";
import { findVoiceForTenant } from "../voices/lookup.js";
import { toEnvelope, type StoredUsage, type TaskEnvelope } from "./envelope.js";
import { envelopeContext } from "./read.js";
import { findTask, insertTask } from "./repository.js";

export interface CreateContext {
  tenantId: string;
  idempotencyKey: string | undefined;
  requestId: string;
  surface: "rest" | "mcp";
}

export interface CreateResult {
  task: TaskEnvelope;
  replayed: boolean;
}

export function validateIdempotencyKey(key: string | undefined, name: string): string {
  if (key === undefined || key.length < 1 || key.length > 128) {
    throw new ServiceError("invalid_request", `${name} is required on every task-creating request (1 to 128 characters).`, {
      details: { errors: [{ loc: ["header", name], reason: "must be 1 to 128 characters" }], header: name },
    });
  }
  return key;
}

export function parseCreateInput(capability: Capability, raw: unknown, allowLoopbackHttp = false): Record<string, unknown> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw invalidRequest([failure([], "the body must be a JSON object")]);
  }
  const parsed = capability.inputSchema.safeParse(raw);
  if (!parsed.success) throw invalidRequest(zodFailures(parsed.error));
  const input = parsed.data as Record<string, unknown> & { callback_url?: string; callback_signing_key_id?: string };
  const failures = [...(capability.crossFieldRules?.(parsed.data) ?? []), ...callbackFieldFailures(input, allowLoopbackHttp)];
  if (failures.length > 0) throw invalidRequest(failures);
  if (input.callback_signing_key_id !== undefined && input.callback_url === undefined) {
    throw new ServiceError("callback_url_required", "callback_signing_key_id needs a callback_url to sign deliveries to.", {
      param: "/callback_signing_key_id",
    });
  }
  return input;
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

async function replay(core: Core, taskId: string): Promise<CreateResult> {
  const row = await findTask(core.db, taskId);
  if (!row) throw new Error(`idempotency key points at missing task ${taskId}`);
  return { task: toEnvelope(row, envelopeContext(core)), replayed: true };
}

// Admission of one task: validate, check media references, select, price, then ONE transaction that claims the idempotency key,
// inserts the task, holds the credits and enqueues its job. Any refusal rolls all of it back.
export async function createTask(core: Core, capabilityId: string, raw: unknown, ctx: CreateContext): Promise<CreateResult> {
  const capability = findCapability(capabilityId);
  if (!capability) throw new ServiceError("unsupported_capability", `Unknown capability ${capabilityId}.`);
  const key = validateIdempotencyKey(ctx.idempotencyKey, ctx.surface === "mcp" ? "client_request_id" : "Idempotency-Key");
  const parsed = parseCreateInput(capability, raw, core.config.outboundAllowLoopbackHttp);
  await checkCallbackSigningKey(core.db, ctx.tenantId, parsed);
  const fingerprint = requestFingerprint(capability.id, parsed);
  const now = core.clock();
  const earlier = await peekIdempotencyKey(core.db, ctx.tenantId, key, fingerprint, now);
  if (earlier) return replay(core, earlier);
  await checkMediaAtAdmission(core, ctx.tenantId, parsed);
  const input = parsed;
  const prepared = await capability.prepare(input, {
    tenantId: ctx.tenantId,
    isFamilyLive: core.isFamilyLive,
    findVoice: (tenantId, voiceId) => findVoiceForTenant(core.db, tenantId, voiceId),
  });

  const outcome = await core.db.transaction(async (tx) => {
    const claim = await claimIdempotencyKey(tx, ctx.tenantId, key, fingerprint, now);
    if (claim.kind === "replay") {
      const original = await findTask(tx, claim.taskId);
      if (!original) throw new Error(`idempotency key points at missing task ${claim.taskId}`);
      return { row: original, replayed: true };
    }
    const taskId = core.ids.task();
    const hold = prepared.quote.totalMicro;
    const typed = input as { metadata?: Record<string, string>; callback_url?: string; callback_signing_key_id?: string };
    const row = await insertTask(tx, {
      id: taskId,
      tenantId: ctx.tenantId,
      capability: capability.id,
      status: "queued",
      model: prepared.requestedModel,
      resolvedModel: prepared.resolvedModel,
      modelSelectionReason: prepared.selectionReason,
      providerFamily: prepared.family,
      metadata: typed.metadata ?? {},
      input,
      billingMode: capability.billingMode,
      heldMicro: hold,
      chargedMicro: capability.billingMode === "prepaid" ? hold : 0n,
      callbackUrl: typed.callback_url ?? null,
      callbackSigningKeyId: typed.callback_signing_key_id ?? null,
      idempotencyKey: key,
      surface: ctx.surface,
      requestId: ctx.requestId,
      quote: storedQuote(prepared),
      usage: null,
      warnings: [],
      progress: { percent: 0, stage: "queued", message: "waiting for a worker" },
      createdAt: now,
      deadlineAt: new Date(now.getTime() + capability.deadlineSeconds * 1000),
    });
    if (hold > 0n) await holdCredits(tx, ctx.tenantId, taskId, hold);
    await insertPendingVoice(tx, row);
    await recordIdempotencyKey(tx, ctx.tenantId, key, fingerprint, taskId, now);
    await enqueueJob(tx, "execute_task", { task_id: taskId });
    return { row, replayed: false };
  });

  return { task: toEnvelope(outcome.row, envelopeContext(core)), replayed: outcome.replayed };
}
