import type { z } from "zod";
import { RetirementSchedule } from "../retirements/retirement.js";
import type { callbackSigningKeySchema } from "../callbacks/wire-schemas.js";
import { capabilitySchemaHash } from "../capabilities/schema-hash.js";
import { findCapability } from "../capabilities/table.js";
import type { Capability } from "../capabilities/types.js";
import { capabilityDetail, capabilityList, modelDetail, modelList } from "../published-catalog/cards.js";
import type { documentedCallbackEventSchema } from "../operations/callback-schemas.js";
import type {
  creditBalanceSchema,
  deletedVoiceSchema,
  livenessSchema,
  quoteSchema,
  readinessSchema,
  taskAssetListSchema,
  uploadedAssetSchema,
  voiceListSchema,
  voiceSchema,
} from "../operations/response-schemas.js";
import type { taskEnvelopeSchema } from "../contracts/envelope-schema.js";

// Example answers for the OpenAPI document, by response component. Each is typed by its schema, so a field the
// schema drops or renames fails to compile, and the OpenAPI test validates every one against the document. The
// catalog's examples are the catalog's own answers (trimmed to a few items); a created task's example is built from
// its capability (its id, example body, tool and schema hash).

// The contract's envelope type (the documented schema's field types are not inferred through its descriptions).
type Task = z.output<typeof taskEnvelopeSchema>;
type SigningKey = z.output<typeof callbackSigningKeySchema>;

const BASE = "https://media.example.com";
const TASK_ID = "task_01kbn5q8yz3x7w2v9r4t6m8p0c";
const ARTIFACT_ID = "art_01kbn5qb2c4d6e8f0g1h3j5k7m";
const SIGNED = `${BASE}/v1/artifacts/${ARTIFACT_ID}/content?expires=1795574400&signature=Hq3v0c2Vd1a8f5Yb9Lx7wQ`;

function links(taskId: string): Task["links"] {
  const self = `${BASE}/v1/tasks/${taskId}`;
  return { self, cancel: `${self}/cancel`, assets: `${self}/assets` };
}

const zeroBilling: Task["billing"] = {
  charged_credits: "0.000000",
  refunded_credits: "0.000000",
  granted_credits: "0.000000",
  grant_source: "none",
  net_charged_credits: "0.000000",
};

const COMMON_FIELDS = new Set(["metadata", "callback_url", "callback_signing_key_id"]);

// The answer to a create of this capability with its example body: admitted, queued, its price held (prepaid).
export function queuedTaskExample(capability: Capability): Task {
  const input = Object.fromEntries(Object.entries(capability.example).filter(([name]) => !COMMON_FIELDS.has(name)));
  const requested = typeof capability.example.model === "string" ? capability.example.model : "auto";
  const resolved = capability.modelIds[0] ?? requested;
  return {
    object: "task",
    task_id: TASK_ID,
    status: "queued",
    capability: capability.id,
    workload_type: "model",
    model: requested,
    resolved_model: resolved,
    model_selection_reason: requested === "auto" ? `auto: first live model for ${capability.id} honouring every requested control` : null,
    social: { platform: "rest", operation_key: capability.id, operation_name: capability.tool.name, schema_hash: capabilitySchemaHash(capability) },
    metadata: {},
    input,
    progress: { percent: 0, stage: "queued", message: "waiting for a worker" },
    output: null,
    warnings: [],
    error: null,
    usage: null,
    billing: capability.billingMode === "prepaid" ? { ...zeroBilling, charged_credits: "0.870000", net_charged_credits: "0.870000" } : zeroBilling,
    callback: null,
    created_at: "2026-11-24T08:00:00.000Z",
    started_at: null,
    deadline_at: new Date(Date.parse("2026-11-24T08:00:00.000Z") + capability.deadlineSeconds * 1000).toISOString(),
    completed_at: null,
    cancel_requested_at: null,
    links: links(TASK_ID),
  };
}

function speech(): Capability {
  const capability = findCapability("text_to_speech");
  if (!capability) throw new Error("the capability table has no text_to_speech");
  return capability;
}

// A speech task after it succeeded, as GET /v1/tasks/{task_id} answers it.
export function succeededTaskExample(): Task {
  const queued = queuedTaskExample(speech());
  return {
    ...queued,
    status: "succeeded",
    progress: { percent: 100, stage: "succeeded", message: "done" },
    output: {
      type: "audio",
      artifacts: [
        {
          artifact_id: ARTIFACT_ID,
          kind: "audio",
          content_type: "audio/mpeg",
          byte_size: 38_912,
          format: "mp3",
          duration_seconds: 2.4,
          sample_rate: 32_000,
          channels: 1,
          url: SIGNED,
          url_expires_at: "2026-11-24T09:00:00.000Z",
        },
      ],
    },
    usage: {
      input_tokens: 0,
      output_tokens: 0,
      cache_read_tokens: 0,
      cache_creation_tokens: 0,
      reasoning_tokens: 0,
      image_count: 0,
      image_pixels: 0,
      video_seconds: 0,
      input_video_seconds: 0,
      output_video_seconds: 0,
      audio_seconds: 2,
      characters: 29,
      lines: [{ meter: "characters", quantity: "29", unit: "character", billed_amount_credits: "0.870000" }],
      credits: "0.870000",
    },
    started_at: "2026-11-24T08:00:00.120Z",
    completed_at: "2026-11-24T08:00:01.480Z",
  };
}

const signingKey: SigningKey = {
  object: "callback_signing_key",
  id: "csk_01kbn5qd7x9z1b3c5d7f9g1h3j",
  name: "orders receiver",
  status: "active",
  created_at: "2026-11-24T08:00:00.000Z",
  rotated_at: null,
  retired_at: null,
  previous_secret_expires_at: null,
};

const voice: z.output<typeof voiceSchema> = {
  voice_id: "en_female_aria",
  object: "voice",
  type: "preset",
  name: "Aria",
  language: "en",
  gender: "female",
  models: ["vendorA-speech-2.8-hd", "vendorA-speech-2.8-turbo"],
  status: "active",
  task_id: null,
  created_at: null,
};

const artifact = {
  object: "artifact" as const,
  artifact_id: ARTIFACT_ID,
  kind: "audio",
  content_type: "audio/mpeg",
  byte_size: 38_912,
  sha256: "9f2c4e1b7a3d5f6e8c0b2a4d6f8e0c2b4a6d8f0e2c4b6a8d0f2e4c6b8a0d2f4e",
  url: SIGNED,
  url_expires_at: "2026-11-24T09:00:00.000Z",
  created_at: "2026-11-24T08:00:01.400Z",
};

// The examples' catalog: every family live, and one model deprecated, retiring on a set day for a replacement.
const catalog = {
  isLive: () => true,
  cancelsRunning: () => false,
  lifecycle: {
    now: new Date("2026-11-24T09:00:00.000Z"),
    schedule: new RetirementSchedule([], [
      {
        model: "vendorA-speech-2.8-turbo",
        deprecatedAt: new Date("2026-11-20T00:00:00.000Z"),
        retiresAt: new Date("2026-12-15T00:00:00.000Z"),
        replacement: "vendorA-speech-2.8-hd",
        source: "operator",
      },
    ]),
  },
};

// One example per response component of the document; a component without one here gets none.
export function responseExamples(): Record<string, unknown> {
  const succeeded = succeededTaskExample();
  const models = modelList(catalog);
  const capabilities = capabilityList();
  const capabilityCard = capabilityDetail("text_to_speech", catalog);
  return {
    TaskEnvelope: succeeded,
    TaskList: { object: "list", data: [succeeded], has_more: true, next_cursor: "eyJpZCI6InRhc2tfMDFrYm41cTh5ejN4N3cydjlyNHQ2bThwMGMifQ" },
    Quote: {
      object: "quote",
      capability: "text_to_speech",
      model: "auto",
      resolved_model: succeeded.resolved_model,
      model_selection_reason: succeeded.model_selection_reason,
      billing_mode: "prepaid",
      price_credits: "0.870000",
      hold_credits: "0.870000",
      lines: [{ meter: "characters", quantity: "29", unit: "character", amount_credits: "0.870000" }],
      available_credits: "999.130000",
      sufficient_balance: true,
    } satisfies z.output<typeof quoteSchema>,
    CreditBalance: {
      object: "credit_balance",
      available_credits: "999.130000",
      held_credits: "0.000000",
      spent_credits: "0.870000",
      granted_credits: "1000.000000",
      spend_limits: [
        { scope: "key", owner: "key_01kbn5qh3k5m7n9p1q3r5s7t9v", period: "day", limit_credits: "50.000000", spent_credits: "0.870000", resets_at: "2026-11-25T00:00:00.000Z" },
      ],
      entries: [
        { id: "1042", kind: "hold", amount_credits: "-0.870000", task_id: TASK_ID, note: null, created_at: "2026-11-24T08:00:01.480Z" },
        { id: "1041", kind: "grant", amount_credits: "1000.000000", task_id: null, note: "development tenant", created_at: "2026-11-24T07:59:00.000Z" },
      ],
      has_more: false,
      next_cursor: null,
    } satisfies z.output<typeof creditBalanceSchema>,
    Voice: voice,
    VoiceList: { object: "list", data: [voice], has_more: false, next_cursor: null } satisfies z.output<typeof voiceListSchema>,
    DeletedVoice: { voice_id: "voice_01kbn5qh3k5m7n9p1q3r5s7t9v", object: "voice", deleted: true } satisfies z.output<typeof deletedVoiceSchema>,
    UploadedAsset: { ...artifact, kind: "audio", content_type: "audio/wav", byte_size: 60, type: "artifact", filename: "voice.wav" } satisfies z.output<
      typeof uploadedAssetSchema
    >,
    TaskAssetList: { object: "list", data: [artifact] } satisfies z.output<typeof taskAssetListSchema>,
    CallbackSigningKey: { ...signingKey, secret: "whsec_4q8Zt1mVb6Xc2Lp9Rk3Ns7Hd5Fg0Jw" },
    CallbackSigningKeyList: { object: "list", data: [signingKey], has_more: false, next_cursor: null },
    ModelList: { ...models, data: models.data.slice(0, 2) },
    ModelCard: modelDetail(capabilityCard.model_cards[0]?.id ?? "", catalog),
    CapabilityList: { ...capabilities, data: capabilities.data.slice(0, 2) },
    CapabilityCard: { ...capabilityCard, model_cards: capabilityCard.model_cards.slice(0, 1) },
    Liveness: { ok: true } satisfies z.output<typeof livenessSchema>,
    Readiness: {
      ready: true,
      checks: { database: { ok: true }, migrations: { ok: true }, workers: { ok: true, alive: 1, workers: [{ worker_id: "worker_7f3a", last_beat_seconds_ago: 2 }] } },
    } satisfies z.output<typeof readinessSchema>,
  };
}

// The body of a delivery to a task's callback_url.
export function callbackEventExample(): z.output<typeof documentedCallbackEventSchema> {
  return { event_id: "evt_01kbn5qk6m8n0p2q4r6s8t0v2w", event_type: "task.succeeded", event_time: "2026-11-24T08:00:01.480Z", task: succeededTaskExample() };
}

// A running task whose cancellation was asked for (cancel's 202).
function cancelingTaskExample(): Task {
  const queued = queuedTaskExample(speech());
  return {
    ...queued,
    status: "running",
    progress: { percent: 40, stage: "generating", message: "generating" },
    started_at: "2026-11-24T08:00:00.120Z",
    cancel_requested_at: "2026-11-24T08:00:00.900Z",
  };
}

// Answers whose example differs from their component's, by operation and status.
export function operationResponseExample(operationId: string, status: string): unknown {
  if (operationId === "cancelTask" && status === "202") return cancelingTaskExample();
  if (operationId === "getReadiness" && status === "503") {
    const workers = { ok: false, alive: 0, workers: [], reason: "no worker has reported taking jobs in the last 15 s: admitted tasks would wait" };
    return { ready: false, checks: { database: { ok: true }, migrations: { ok: true }, workers } } satisfies z.output<typeof readinessSchema>;
  }
  if (operationId === "redeliverTaskCallback" && status === "202") {
    const succeeded = succeededTaskExample();
    return { ...succeeded, callback: { url: "https://example.com/hooks/media", status: "pending", attempt_count: 6, delivered_at: null, last_error: "HTTP 500" } };
  }
  return undefined;
}

// Request bodies the operations table gives no example for, by component.
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  // A 60-byte WAV: 8 kHz, mono, 16-bit, 8 samples of silence.
  AssetUploadRequest: { content_base64: "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA", filename: "voice.wav" },
  CancelTaskRequest: { reason: "The user closed the page." },
};

// Path, query and header parameters' examples, by name.
export const PARAMETER_EXAMPLES: Record<string, string | number> = {
  task_id: TASK_ID,
  voice_id: "en_female_aria",
  key_id: "csk_01kbn5qd7x9z1b3c5d7f9g1h3j",
  artifact_id: ARTIFACT_ID,
  model: "vendorA-speech-2.8-hd",
  capability: "text_to_speech",
  expires: "1795574400",
  signature: "Hq3v0c2Vd1a8f5Yb9Lx7wQ",
  Prefer: "wait=60",
  "Idempotency-Key": "5d0b3c1e-8f7a-4a52-9d6b-2e4f1a7c9b30",
  "Last-Event-ID": "3",
  limit: 20,
};
