import type { ArtifactUrlSigner } from "../artifacts/signed-url.js";
import { findCapability, inputSchemaOf } from "../capabilities/table.js";
import { capabilitySchemaHash } from "../capabilities/schema-hash.js";
import { formatCredits } from "../credits/money.js";
import { errorBody, isErrorCode } from "../errors/index.js";
import { renderMediaInputs } from "../media/inline.js";
import type { MediaFacts } from "../media/slots.js";
import type { TaskRow } from "./repository.js";

export const USAGE_COUNTERS = [
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_creation_tokens",
  "reasoning_tokens",
  "image_count",
  "image_pixels",
  "video_seconds",
  "input_video_seconds",
  "output_video_seconds",
  "audio_seconds",
  "characters",
] as const;

// Stored usage: integer counters, lines with bigint amounts as strings, total in micro-credits.
export interface StoredUsage {
  counters: Partial<Record<(typeof USAGE_COUNTERS)[number], number>>;
  lines: { meter: string; quantity: string; unit: string; amount_micro: string }[];
  total_micro: string;
}

export interface StoredArtifactRef {
  artifact_id: string;
  kind: string;
  content_type: string;
  byte_size: number;
  [key: string]: unknown;
}

export interface StoredError {
  code: string;
  message: string;
  param?: string;
  details?: Record<string, unknown>;
}

const COMMON_FIELDS = new Set(["metadata", "callback_url", "callback_signing_key_id"]);

export interface EnvelopeContext {
  baseUrl: string;
  signer: ArtifactUrlSigner;
  now: Date;
}

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

function renderUsage(stored: StoredUsage | null) {
  if (!stored) return null;
  const usage: Record<string, unknown> = {};
  for (const counter of USAGE_COUNTERS) usage[counter] = stored.counters[counter] ?? 0;
  usage.lines = stored.lines.map((l) => ({
    meter: l.meter,
    quantity: l.quantity,
    unit: l.unit,
    billed_amount_credits: formatCredits(BigInt(l.amount_micro)),
  }));
  usage.credits = formatCredits(BigInt(stored.total_micro));
  return usage;
}

// Once retention deleted a task's artifacts each says so (`expired_at`); its URL then answers 410.
function renderOutput(output: Record<string, unknown> | null, ctx: EnvelopeContext, expiredAt: Date | null) {
  if (!output) return null;
  const expired = expiredAt ? { expired_at: expiredAt.toISOString() } : {};
  const withUrls = (refs: StoredArtifactRef[]) =>
    refs.map((a) => {
      const signed = ctx.signer.sign(a.artifact_id, ctx.now);
      return { ...a, url: signed.url, url_expires_at: signed.expiresAt.toISOString(), ...expired };
    });
  return {
    ...output,
    artifacts: withUrls((output.artifacts as StoredArtifactRef[] | undefined) ?? []),
    // Music lists its tracks again as `clips[]` (SPEC.md), signed like every artifact.
    ...(Array.isArray(output.clips) ? { clips: withUrls(output.clips as StoredArtifactRef[]) } : {}),
  };
}

function renderError(error: StoredError | null, requestId: string) {
  if (!error) return null;
  const code = isErrorCode(error.code) ? error.code : "internal_error";
  return errorBody(code, error.message, { param: error.param, details: error.details, requestId });
}

export function toEnvelope(row: TaskRow, ctx: EnvelopeContext) {
  const fields = Object.fromEntries(Object.entries(row.input as Record<string, unknown>).filter(([k]) => !COMMON_FIELDS.has(k)));
  // Media inputs given inline appear as references, never as their bytes (core/media/inline.ts).
  const input = renderMediaInputs(inputSchemaOf(row.capability), fields, row.resolvedMedia as Record<string, MediaFacts> | null);
  const capability = findCapability(row.capability);
  const self = `${ctx.baseUrl}/v1/tasks/${row.id}`;
  const callbackState = row.callbackState as Record<string, unknown> | null;
  return {
    object: "task" as const,
    task_id: row.id,
    status: row.status,
    capability: row.capability,
    workload_type: row.workloadType,
    model: row.model,
    resolved_model: row.resolvedModel,
    model_selection_reason: row.modelSelectionReason,
    social: {
      platform: row.surface,
      operation_key: row.capability,
      operation_name: capability?.tool.name ?? row.capability,
      schema_hash: capability ? capabilitySchemaHash(capability) : null,
    },
    metadata: row.metadata,
    input,
    progress: row.progress,
    output: renderOutput(row.output as Record<string, unknown> | null, ctx, row.artifactsExpiredAt),
    warnings: row.warnings,
    error: renderError(row.error as StoredError | null, row.requestId),
    usage: renderUsage(row.usage as StoredUsage | null),
    billing: {
      charged_credits: formatCredits(row.chargedMicro),
      refunded_credits: formatCredits(row.refundedMicro),
      granted_credits: formatCredits(0n),
      grant_source: "none",
      net_charged_credits: formatCredits(row.chargedMicro - row.refundedMicro),
    },
    callback: row.callbackUrl
      ? {
          url: row.callbackUrl,
          status: (callbackState?.status as string | undefined) ?? "pending",
          attempt_count: (callbackState?.attempt_count as number | undefined) ?? 0,
          delivered_at: (callbackState?.delivered_at as string | undefined) ?? null,
          last_error: (callbackState?.last_error as string | undefined) ?? null,
        }
      : null,
    created_at: iso(row.createdAt),
    started_at: iso(row.startedAt),
    deadline_at: iso(row.deadlineAt),
    completed_at: iso(row.completedAt),
    cancel_requested_at: iso(row.cancelRequestedAt),
    links: { self, cancel: `${self}/cancel`, assets: `${self}/assets` },
  };
}

export type TaskEnvelope = ReturnType<typeof toEnvelope>;
