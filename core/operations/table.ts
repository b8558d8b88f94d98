import { z } from "zod";
import { listTaskAssets } from "../artifacts/read.js";
import { assetUploadSchema, uploadAsset } from "../assets/upload.js";
import { redeliverCallback } from "../callbacks/redeliver.js";
import { createSigningKey, getSigningKey, listSigningKeysPage, retireSigningKey, signingKeyListQuerySchema } from "../signing-keys/keys.js";
import { rotateSigningKey } from "../signing-keys/rotate.js";
import { capabilityDetail, capabilityList, catalogState, modelDetail, modelList } from "../catalog/cards.js";
import { creditBalanceView, creditsQuerySchema } from "../credits/view.js";
import { deleteVoice } from "../voices/delete.js";
import { getVoice } from "../voices/get.js";
import { cancelTaskRequest, cancelTaskBodySchema } from "../tasks/cancel-request.js";
import { findTaskByIdempotencyKey, idempotencyLookupQuerySchema, isIdempotencyKeyLookup } from "../tasks/idempotency-lookup.js";
import { getTask, listTasksPage, taskListQuerySchema } from "../tasks/read.js";
import { waitForTask } from "../tasks/task-wait.js";
import { listVoicesPage, voiceListQuerySchema } from "../voices/list.js";
import {
  documentedCreateSigningKeyBody,
  documentedRotateSigningKeyBody,
  documentedSigningKeyListSchema,
  documentedSigningKeySchema,
} from "./callback-schemas.js";
import { ADMISSION_ERRORS } from "./create-errors.js";
import {
  capabilityCardSchema,
  capabilityListSchema,
  creditBalanceSchema,
  deletedVoiceSchema,
  livenessSchema,
  quoteSchema,
  modelCardSchema,
  modelListSchema,
  readinessSchema,
  taskAssetListSchema,
  uploadedAssetSchema,
  voiceListSchema,
  voiceSchema,
} from "./response-schemas.js";
import { documentedTaskListSchema, documentedTaskSchema } from "./task-envelope.js";
import { operationRows, StatusAnswer, type Operation } from "./types.js";

// Every route of the REST server besides the task-creating ones (those come from the capability table), once:
// the REST server registers each from here (rest-server/routes/operation-routes.ts: the operations with a use case
// through one handler, the others through handlers keyed by their ids), the OpenAPI document describes all of
// them, MCP's tools take their names and arguments from the rows they mirror, and the client's calls are typed by
// their ids. test/rest/operations-table.test.ts holds this table to the routes the REST server really serves.

const taskId = z.object({ task_id: z.string().describe("The task's id (task_…).") });
const voiceId = z.object({ voice_id: z.string().describe("A preset voice's id or a cloned voice's voice_… id.") });
const keyId = z.object({ key_id: z.string().describe("The signing key's id (csk_…).") });
const task = { schema: documentedTaskSchema, component: "TaskEnvelope" };
const taskList = { schema: documentedTaskListSchema, component: "TaskList" };
// Prefer: wait=N (rest-server/routes/prefer-wait.ts), shared by task creation and task reads.
export const preferWaitHeaders = z.object({
  Prefer: z
    .string()
    .optional()
    .describe("wait=N (N ≤ 60 seconds): answer once the task has ended or N seconds have passed; Preference-Applied says it was applied."),
});
const signingKey = { schema: documentedSigningKeySchema, component: "CallbackSigningKey" };

// The operations MCP's tools mirror (mcp-server/tools/): named, so the tools take their names and their arguments'
// schemas from them with their types.
const listTasksOperation = {
  operationId: "listTasks",
  method: "GET",
  path: "/v1/tasks",
  summary: "List your tasks, newest first",
  area: "tasks",
  // The list's query, or the key lookup's (idempotency_key alone).
  query: taskListQuerySchema.extend(idempotencyLookupQuerySchema.partial().shape),
  responses: { 200: { description: "A page of tasks", body: taskList } },
  errors: ["invalid_request", "invalid_cursor"],
  run: (core, call) =>
    isIdempotencyKeyLookup(call.query) ? findTaskByIdempotencyKey(core, call.tenantId, call.query) : listTasksPage(core, call.tenantId, call.query),
  tool: "svc.tasks.list",
} as const satisfies Operation;

const getTaskOperation = {
  operationId: "getTask",
  method: "GET",
  path: "/v1/tasks/{task_id}",
  summary: "Read a task",
  area: "tasks",
  params: taskId,
  headers: preferWaitHeaders,
  responses: { 200: { description: "The task", body: task, headers: ["Preference-Applied"] } },
  errors: ["task_not_found"],
  run: (core, call) => (call.wait ? waitForTask(core, call.tenantId, call.params.task_id!, call.wait) : getTask(core, call.tenantId, call.params.task_id!)),
  tool: "svc.tasks.get",
} as const satisfies Operation;

const cancelTaskOperation = {
  operationId: "cancelTask",
  method: "POST",
  path: "/v1/tasks/{task_id}/cancel",
  summary: "Cancel a task: a terminal task answers its final state; a running task that cannot be stopped answers 409",
  area: "tasks",
  params: taskId,
  body: { schema: cancelTaskBodySchema, component: "CancelTaskRequest", required: false },
  responses: {
    200: { description: "The task was already terminal, or was canceled at once: its final state", body: task },
    202: { description: "Cancellation requested: the task ends canceled shortly; keep polling", body: task },
  },
  errors: ["task_not_found", "conflict", "invalid_request"],
  run: async (core, call) => {
    const result = await cancelTaskRequest(core, call.tenantId, call.params.task_id!, call.body);
    return new StatusAnswer(result.outcome === "requested" ? 202 : 200, result.task);
  },
  tool: "svc.tasks.cancel",
} as const satisfies Operation;

const listVoicesOperation = {
  operationId: "listVoices",
  method: "GET",
  path: "/v1/voices",
  summary: "Preset voices and your cloned voices",
  area: "voices",
  query: voiceListQuerySchema,
  responses: { 200: { description: "A page of voices", body: { schema: voiceListSchema, component: "VoiceList" } } },
  errors: ["invalid_request", "invalid_cursor"],
  run: (core, call) => listVoicesPage(core, call.tenantId, call.query),
  tool: "svc.voices.list",
} as const satisfies Operation;

const uploadAssetOperation = {
  operationId: "uploadAsset",
  method: "POST",
  path: "/v1/assets",
  summary: 'Upload media (base64 JSON) as your artifact; reference it as {type: "artifact", artifact_id} in media inputs',
  area: "assets",
  body: { schema: assetUploadSchema, component: "AssetUploadRequest", required: true },
  responses: { 201: { description: "The stored artifact", body: { schema: uploadedAssetSchema, component: "UploadedAsset" } } },
  errors: ["invalid_request", "invalid_media", "unsupported_media_type", "media_too_large"],
  run: (core, call) => uploadAsset(core, call.tenantId, call.body),
  tool: "svc.assets.upload",
} as const satisfies Operation;

const getCreditsOperation = {
  operationId: "getCredits",
  method: "GET",
  path: "/v1/credits",
  summary: "Your credit balance and your ledger, newest first, a page at a time",
  area: "credits",
  query: creditsQuerySchema,
  responses: { 200: { description: "Your balance", body: { schema: creditBalanceSchema, component: "CreditBalance" } } },
  errors: ["invalid_request", "invalid_cursor"],
  run: (core, call) => creditBalanceView(core, call.tenantId, call.query),
  tool: "svc.credits.get",
} as const satisfies Operation;

const createQuoteOperation = {
  operationId: "createQuote",
  method: "POST",
  path: "/v1/quotes",
  summary: "What a create would do, without doing it: the resolved model, the selection reason, the price and the hold, or the refusal the create would give",
  area: "capability",
  body: {
    schema: z
      .object({ capability: z.string().describe("The capability to price, e.g. text_to_speech; the create's fields sit beside it.") })
      .catchall(z.unknown()),
    component: "QuoteRequest",
    example: { capability: "text_to_speech", voice: "en_female_aria", input: "Hello from the media service." },
    required: true,
  },
  responses: { 200: { description: "The quote; nothing is held or created", body: { schema: quoteSchema, component: "Quote" } } },
  errors: ["unsupported_capability", ...ADMISSION_ERRORS],
  tool: "svc.tasks.quote",
} as const satisfies Operation;

// svc.models.list answers the model list, and with its arguments a model's or a capability's card.
const listModelsOperation = {
  operationId: "listModels",
  method: "GET",
  path: "/v1/models",
  summary: "Live models (OpenAI-compatible list)",
  area: "catalog",
  responses: { 200: { description: "The live models", body: { schema: modelListSchema, component: "ModelList" } } },
  errors: [],
  run: async (core) => modelList(core.isFamilyLive),
  tool: "svc.models.list",
} as const satisfies Operation;

export const MIRRORED_OPERATIONS = {
  listTasks: listTasksOperation,
  getTask: getTaskOperation,
  cancelTask: cancelTaskOperation,
  listVoices: listVoicesOperation,
  uploadAsset: uploadAssetOperation,
  getCredits: getCreditsOperation,
  createQuote: createQuoteOperation,
  listModels: listModelsOperation,
};

const TASK_OPERATIONS = operationRows([
  listTasksOperation,
  getTaskOperation,
  {
    operationId: "streamTaskEvents",
    method: "GET",
    path: "/v1/tasks/{task_id}/events",
    summary: "The task's status and progress as server-sent events, then the final envelope; the stream ends with the task",
    area: "tasks",
    params: taskId,
    headers: z.object({ "Last-Event-ID": z.string().optional().describe("The id of the last event received: resume after it.") }),
    responses: {
      200: {
        description: "The event stream (events status, progress and task; comment heartbeats)",
        body: { mediaType: "text/event-stream", text: "Server-sent events; each data line is JSON." },
      },
    },
    errors: ["task_not_found"],
  },
  createQuoteOperation,
  cancelTaskOperation,
  {
    operationId: "listTaskAssets",
    method: "GET",
    path: "/v1/tasks/{task_id}/assets",
    summary: "A task's artifacts with fresh signed URLs",
    area: "tasks",
    params: taskId,
    responses: { 200: { description: "The task's artifacts", body: { schema: taskAssetListSchema, component: "TaskAssetList" } } },
    errors: ["task_not_found"],
    run: (core, call) => listTaskAssets(core, call.tenantId, call.params.task_id!),
  },
  {
    operationId: "redeliverTaskCallback",
    method: "POST",
    path: "/v1/tasks/{task_id}/callback/redeliver",
    summary: "One more delivery attempt of a terminal task's callback event (same event_id), once its scheduled attempts have settled",
    area: "tasks",
    params: taskId,
    responses: { 202: { description: "The delivery is scheduled", body: task } },
    errors: ["task_not_found", "conflict", "callback_signing_key_inactive"],
    run: (core, call) => redeliverCallback(core, call.tenantId, call.params.task_id!),
  },
]);

const ACCOUNT_OPERATIONS = operationRows([
  getCreditsOperation,
  listVoicesOperation,
  {
    operationId: "getVoice",
    method: "GET",
    path: "/v1/voices/{voice_id}",
    summary: "One voice",
    area: "voices",
    params: voiceId,
    responses: { 200: { description: "The voice", body: { schema: voiceSchema, component: "Voice" } } },
    errors: ["voice_not_found"],
    run: (core, call) => getVoice(core, call.tenantId, call.params.voice_id!),
  },
  {
    operationId: "deleteVoice",
    method: "DELETE",
    path: "/v1/voices/{voice_id}",
    summary: "Delete a cloned voice (presets cannot be deleted: 409)",
    area: "voices",
    params: voiceId,
    responses: { 200: { description: "The voice is deleted", body: { schema: deletedVoiceSchema, component: "DeletedVoice" } } },
    errors: ["voice_not_found", "conflict"],
    run: (core, call) => deleteVoice(core, call.tenantId, call.params.voice_id!),
  },
  uploadAssetOperation,
]);

const CALLBACK_OPERATIONS = operationRows([
  {
    operationId: "createCallbackSigningKey",
    method: "POST",
    path: "/v1/callback-signing-keys",
    summary: "Create a callback signing key; the answer carries its secret, shown this once",
    area: "callbacks",
    body: { schema: documentedCreateSigningKeyBody, component: "CreateCallbackSigningKeyRequest", example: { name: "orders receiver" }, required: false },
    responses: { 201: { description: "The new key, with its secret", body: signingKey } },
    errors: ["invalid_request"],
    run: (core, call) => createSigningKey(core, call.tenantId, call.body),
  },
  {
    operationId: "listCallbackSigningKeys",
    method: "GET",
    path: "/v1/callback-signing-keys",
    summary: "Your callback signing keys, newest first (never their secrets)",
    area: "callbacks",
    query: signingKeyListQuerySchema,
    responses: { 200: { description: "A page of keys", body: { schema: documentedSigningKeyListSchema, component: "CallbackSigningKeyList" } } },
    errors: ["invalid_request", "invalid_cursor"],
    run: (core, call) => listSigningKeysPage(core, call.tenantId, call.query),
  },
  {
    operationId: "getCallbackSigningKey",
    method: "GET",
    path: "/v1/callback-signing-keys/{key_id}",
    summary: "One callback signing key",
    area: "callbacks",
    params: keyId,
    responses: { 200: { description: "The key (never its secret)", body: signingKey } },
    errors: ["callback_signing_key_not_found"],
    run: (core, call) => getSigningKey(core, call.tenantId, call.params.key_id!),
  },
  {
    operationId: "rotateCallbackSigningKey",
    method: "POST",
    path: "/v1/callback-signing-keys/{key_id}/rotate",
    summary: "Replace the key's secret (shown this once); the old secret keeps signing alongside for the grace period",
    area: "callbacks",
    params: keyId,
    body: {
      schema: documentedRotateSigningKeyBody,
      component: "RotateCallbackSigningKeyRequest",
      example: { grace_period_seconds: 86400 },
      required: false,
    },
    responses: { 200: { description: "The key, with its new secret", body: signingKey } },
    errors: ["callback_signing_key_not_found", "callback_signing_key_inactive", "invalid_request"],
    run: (core, call) => rotateSigningKey(core, call.tenantId, call.params.key_id!, call.body),
  },
  {
    operationId: "retireCallbackSigningKey",
    method: "POST",
    path: "/v1/callback-signing-keys/{key_id}/retire",
    summary: "Retire a key for good: new tasks cannot choose it and deliveries are no longer signed with it",
    area: "callbacks",
    params: keyId,
    responses: { 200: { description: "The retired key", body: signingKey } },
    errors: ["callback_signing_key_not_found"],
    run: (core, call) => retireSigningKey(core, call.tenantId, call.params.key_id!),
  },
]);

const CATALOG_OPERATIONS = operationRows([
  listModelsOperation,
  {
    operationId: "listCatalogModels",
    method: "GET",
    path: "/v1/catalog/models",
    summary: "Same list as /v1/models",
    area: "catalog",
    responses: { 200: { description: "The live models", body: { schema: modelListSchema, component: "ModelList" } } },
    errors: [],
    run: async (core) => modelList(core.isFamilyLive),
  },
  {
    operationId: "getCatalogModel",
    method: "GET",
    path: "/v1/catalog/models/{model}",
    summary: "One model's card: constraints and prices",
    area: "catalog",
    params: z.object({ model: z.string().describe("The model id.") }),
    responses: { 200: { description: "The model's card", body: { schema: modelCardSchema, component: "ModelCard" } } },
    errors: ["not_found"],
    run: async (core, call) => modelDetail(call.params.model!, catalogState(core)),
  },
  {
    operationId: "listCatalogCapabilities",
    method: "GET",
    path: "/v1/catalog/capabilities",
    summary: "Every capability",
    area: "catalog",
    responses: { 200: { description: "Every capability", body: { schema: capabilityListSchema, component: "CapabilityList" } } },
    errors: [],
    run: async () => capabilityList(),
  },
  {
    operationId: "getCatalogCapability",
    method: "GET",
    path: "/v1/catalog/capabilities/{capability}",
    summary: "One capability's card: input schema and model cards",
    area: "catalog",
    params: z.object({ capability: z.string().describe("The capability id.") }),
    responses: { 200: { description: "The capability's card", body: { schema: capabilityCardSchema, component: "CapabilityCard" } } },
    errors: ["not_found"],
    run: async (core, call) => capabilityDetail(call.params.capability!, catalogState(core)),
  },
]);

// Answered without an API key: signed downloads, the service's pages and its probes.
const SERVICE_OPERATIONS = operationRows([
  {
    operationId: "downloadArtifact",
    method: "GET",
    path: "/v1/artifacts/{artifact_id}/content",
    summary: "Download an artifact through its signed URL (no API key: the signature is the credential)",
    area: null,
    params: z.object({ artifact_id: z.string().describe("The artifact's id (art_…).") }),
    query: z.object({
      expires: z.string().describe("Expiry, Unix seconds, as in the signed URL."),
      signature: z.string().describe("The URL's signature, as in the signed URL."),
    }),
    responses: {
      200: { description: "The bytes", body: { mediaType: "application/octet-stream", text: "The artifact's bytes." } },
      206: { description: "The requested range", body: { mediaType: "application/octet-stream", text: "The bytes of the range." } },
      304: { description: "Not modified (If-None-Match or If-Modified-Since)" },
    },
    errors: ["forbidden", "artifact_not_found"],
  },
  {
    operationId: "getOpenApiDocument",
    kind: "page",
    method: "GET",
    path: "/v1/openapi.json",
    summary: "This document",
    area: null,
    responses: { 200: { description: "This document", body: { mediaType: "application/json", text: "The OpenAPI 3.1 document." } } },
    errors: [],
  },
  {
    operationId: "getApiReference",
    kind: "page",
    method: "GET",
    path: "/v1/docs",
    summary: "Readable API reference",
    area: null,
    responses: { 200: { description: "The reference page", body: { mediaType: "text/html", text: "An HTML page." } } },
    errors: [],
  },
  {
    operationId: "getConsole",
    kind: "page",
    method: "GET",
    path: "/",
    summary: "The web console: try every capability, see and play the results, manage credits, keys and voices with your API key",
    area: null,
    responses: {
      200: { description: "The console's page", body: { mediaType: "text/html", text: "An HTML page." } },
      304: { description: "Not modified (If-None-Match)" },
      503: { description: "The console is not built (npm run build)", body: { mediaType: "text/plain", text: "What to run." } },
    },
    errors: [],
  },
  {
    operationId: "getConsoleFile",
    kind: "page",
    method: "GET",
    path: "/console/{file}",
    summary: "A file of the web console (its script or style sheet)",
    area: null,
    params: z.object({ file: z.string().describe("The file's name, as the console's page links it.") }),
    responses: {
      200: { description: "The file", body: { mediaType: "text/plain", text: "JavaScript, CSS or a source map." } },
      304: { description: "Not modified (If-None-Match)" },
    },
    errors: ["not_found"],
  },
  {
    operationId: "getLiveness",
    kind: "probe",
    method: "GET",
    path: "/healthz",
    summary: "Liveness",
    area: null,
    responses: { 200: { description: "The process runs", body: { schema: livenessSchema, component: "Liveness" } } },
    errors: [],
  },
  {
    operationId: "getReadiness",
    kind: "probe",
    method: "GET",
    path: "/readyz",
    summary: "Readiness: the database answers, is migrated, and a worker is taking jobs (503 with the failing check otherwise)",
    area: null,
    responses: {
      200: { description: "Ready", body: { schema: readinessSchema, component: "Readiness" } },
      503: { description: "Not ready: the failing check", body: { schema: readinessSchema, component: "Readiness" } },
    },
    errors: [],
  },
  {
    operationId: "getMetrics",
    kind: "probe",
    method: "GET",
    path: "/metrics",
    summary: "Prometheus metrics of this replica",
    area: null,
    responses: { 200: { description: "Prometheus text exposition", body: { mediaType: "text/plain", text: "Prometheus text format." } } },
    errors: [],
  },
]);

const TABLE = [...TASK_OPERATIONS, ...ACCOUNT_OPERATIONS, ...CALLBACK_OPERATIONS, ...CATALOG_OPERATIONS, ...SERVICE_OPERATIONS] as const;

export const OPERATIONS: readonly Operation[] = TABLE;

// One row of the table as written, its operationId a literal.
export type OperationRow = (typeof TABLE)[number];

