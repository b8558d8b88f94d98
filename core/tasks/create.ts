import { callbackFieldFailures, checkCallbackSigningKey } from "./callback-fields.js";
import { findCapability } from "../capabilities/table.js";
import type { Capability, Prepared } from "../capabilities/types.js";
import type { Config } from "../config.js";
import type { ReadSql } from "../db/client.js";
import type { GroupCommit } from "../db/group-commit.js";
import { failure, invalidRequest, ServiceError, zodFailures, type FieldFailure } from "../errors/index.js";
import { modelListHint } from "../selection/model-list-hint.js";
import { peekIdempotencyKey, type KeyClaim } from "../idempotency/claim.js";
import { checkMediaAtAdmission, type MediaAdmissionRuntime } from "../media/admission.js";
import { requestFingerprint } from "../idempotency/fingerprint.js";
import { recordAdmission, recordRefusal, type TaskEventRecorder } from "./task-events.js";
import type { IdGenerator } from "../ids.js";
import type { Admission, AdmissionResult } from "./admission-batch.js";
import { admittedTaskRow } from "./admitted-rows.js";
import { toEnvelope, type TaskEnvelope } from "./envelope.js";
import { envelopeContext, type EnvelopeRuntime } from "./read.js";
import { prepareKnowing, type SelectionRuntime } from "./prepare-known.js";
import { readTask } from "./task-reads.js";
import { readLifecycle, type LifecycleRuntime } from "../retirements/lifecycle.js";
import type { Retirement } from "../retirements/retirement.js";
import { IDEMPOTENCY_KEY_LENGTH, IDEMPOTENCY_KEY_MAX_CHARS } from "../idempotency/key-bounds.js";

// The parts of the runtime preparing a request uses: the media checks, the voices in the database, and which
// vendor families are live, and the models' retirements.
export interface PrepareRuntime extends MediaAdmissionRuntime, SelectionRuntime {}

// The parts of the runtime an admission uses: what preparing the request uses, the task's id and the group
// commits of admissions, the reads and envelope of a replayed task, and what the admission is counted and logged
// with.
export interface CreateRuntime extends PrepareRuntime, EnvelopeRuntime, TaskEventRecorder {
  reads: ReadSql;
  ids: IdGenerator;
  admissions: GroupCommit<Admission, AdmissionResult>;
  config: Pick<Config, "outboundAllowLoopbackHttp" | "mediaInputMaxBytes" | "publicBaseUrl" | "logPrompts">;
}

export interface CreateContext {
  tenantId: string;
  idempotencyKey: string | undefined;
  requestId: string;
  surface: "rest" | "mcp";
  // The API key behind the request (an access token's key too): its spend limit applies.
  apiKeyId?: string;
}

export interface CreateResult {
  task: TaskEnvelope;
  replayed: boolean;
  // The resolved model's retirement when it is deprecated or retired now, for REST's Deprecation and Sunset.
  deprecation: Retirement | null;
}

export function validateIdempotencyKey(key: string | undefined, name: string): string {
  if (key === undefined || key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX_CHARS) {
    throw new ServiceError("invalid_request", `${name} is required on every task-creating request (${IDEMPOTENCY_KEY_LENGTH}).`, {
      details: { errors: [{ loc: ["header", name], reason: `must be ${IDEMPOTENCY_KEY_LENGTH}` }], header: name },
    });
  }
  return key;
}

// A missing or malformed `model` says where the valid values are listed.
function withModelHint(failure: FieldFailure, capability: Capability): FieldFailure {
  return { ...failure, reason: `${failure.reason}; ${modelListHint(capability.id)}` };
}

export function parseCreateInput(capability: Capability, raw: unknown, allowLoopbackHttp = false): Record<string, unknown> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw invalidRequest([failure([], "the body must be a JSON object")]);
  }
  const parsed = capability.inputSchema.safeParse(raw);
  if (!parsed.success) throw invalidRequest(zodFailures(parsed.error).map((f) => (f.param === "/model" ? withModelHint(f, capability) : f)));
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

// A replayed admission answers as the original did, its model's retirement as it stands now.
async function replay(core: EnvelopeRuntime & LifecycleRuntime & { reads: ReadSql }, taskId: string): Promise<CreateResult> {
  const row = await readTask(core.reads, taskId);
  if (!row) throw new Error(`idempotency key points at missing task ${taskId}`);
  const { schedule, now } = await readLifecycle(core);
  const retirement = schedule.of(row.resolvedModel);
  const deprecation = retirement && schedule.phaseOf(row.resolvedModel, now) !== "active" ? retirement : null;
  return { task: toEnvelope(row, envelopeContext(core)), replayed: true, deprecation };
}

// Checks the media references and prepares the request (selection, price): the steps that may refuse it after
// validation. Creation and quotes share it, so a quote gives the same model, price and refusal as the create.
export async function prepareRequest(core: PrepareRuntime, capability: Capability, input: Record<string, unknown>, tenantId: string): Promise<Prepared> {
  const media = await checkMediaAtAdmission(core, tenantId, capability.inputSchema, input);
  return prepareKnowing(core, capability, input, tenantId, media);
}

// A request prepareRequest refuses may still be the replay of an admitted one (its voice deleted since, say),
// which answers with its task.
async function prepareOrReplay(core: PrepareRuntime, capability: Capability, input: Record<string, unknown>, claim: KeyClaim): Promise<Prepared | string> {
  try {
    return await prepareRequest(core, capability, input, claim.tenantId);
  } catch (error) {
    const earlier = error instanceof ServiceError ? await peekIdempotencyKey(core.db, claim) : null;
    if (earlier) return earlier;
    throw error;
  }
}

// Admission of one task: validate, check media references, select, price, then one transaction that claims the
// idempotency key, inserts the task, holds the credits and enqueues its job — shared with the admissions that
// arrive meanwhile (core/db/group-commit.ts). Any refusal leaves nothing of this request behind.
export async function createTask(core: CreateRuntime, capabilityId: string, raw: unknown, ctx: CreateContext): Promise<CreateResult> {
  const capability = findCapability(capabilityId);
  if (!capability) throw new ServiceError("unsupported_capability", `Unknown capability ${capabilityId}.`);
  const key = validateIdempotencyKey(ctx.idempotencyKey, ctx.surface === "mcp" ? "client_request_id" : "Idempotency-Key");
  const input = parseCreateInput(capability, raw, core.config.outboundAllowLoopbackHttp);
  await checkCallbackSigningKey(core.db, ctx.tenantId, input);
  const claim: KeyClaim = {
    tenantId: ctx.tenantId,
    key,
    fingerprint: requestFingerprint(capability.id, input),
    now: core.clock(),
    ...(ctx.surface === "mcp" ? { keyName: "client_request_id", keyParam: "/client_request_id" } : {}),
  };
  const prepared = await prepareOrReplay(core, capability, input, claim);
  if (typeof prepared === "string") return replay(core, prepared);

  const row = admittedTaskRow({
    id: core.ids.task(),
    tenantId: ctx.tenantId,
    capability,
    input,
    prepared,
    idempotencyKey: key,
    surface: ctx.surface,
    requestId: ctx.requestId,
    apiKeyId: ctx.apiKeyId ?? null,
    now: claim.now,
  });
  const result = await core.admissions.submit({ claim, row, hold: prepared.quote.totalMicro, apiKeyId: ctx.apiKeyId });
  if (result.kind === "replay") return replay(core, result.taskId);
  if (result.kind === "refused") {
    recordRefusal(core, result.error);
    throw result.error;
  }
  recordAdmission(core, result.row);
  return { task: toEnvelope(result.row, envelopeContext(core)), replayed: false, deprecation: prepared.deprecation };
}
