import { z } from "zod";
import { assetUploadSchema, uploadAsset } from "../../assets/upload.js";
import { catalogState, modelList } from "../../published-catalog/cards.js";
import { creditBalanceView, creditsQuerySchema } from "../../credits/view.js";
import { cancelTaskRequest, cancelTaskBodySchema } from "../../tasks/cancel-request.js";
import { findTaskByIdempotencyKey, idempotencyLookupQuerySchema, isIdempotencyKeyLookup } from "../../tasks/idempotency-lookup.js";
import { getTask, listTasksPage, taskListQuerySchema } from "../../tasks/read.js";
import { waitForTask } from "../../tasks/task-wait.js";
import { listVoicesPage, voiceListQuerySchema } from "../../voices/list.js";
import { ADMISSION_ERRORS } from "../create-errors.js";
import { creditBalanceSchema, quoteSchema, modelListSchema, uploadedAssetSchema, voiceListSchema } from "../response-schemas.js";
import { defineOperation } from "../define.js";
import { StatusAnswer } from "../types.js";
import { preferWaitHeaders, task, taskId, taskList } from "./shared.js";

// The operations MCP's tools mirror (mcp-server/tools/): named, so the tools take their names, and their arguments'
// schemas with their types, from them. The tools whose arguments are the operation's own are generated from their
// rows, and their texts are written here.
export const listTasksOperation = defineOperation({
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
  tool: { name: "svc.tasks.list" },
});

export const getTaskOperation = defineOperation({
  operationId: "getTask",
  method: "GET",
  path: "/v1/tasks/{task_id}",
  summary: "Read a task",
  area: "tasks",
  params: taskId,
  headers: preferWaitHeaders,
  responses: { 200: { description: "The task", body: task, headers: ["Preference-Applied"] } },
  errors: ["task_not_found"],
  run: (core, call) => (call.wait ? waitForTask(core, call.tenantId, call.params.task_id, call.wait) : getTask(core, call.tenantId, call.params.task_id)),
  tool: { name: "svc.tasks.get" },
});

export const cancelTaskOperation = defineOperation({
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
    const result = await cancelTaskRequest(core, call.tenantId, call.params.task_id, call.body);
    return new StatusAnswer(result.outcome === "requested" ? 202 : 200, result.task);
  },
  tool: {
    name: "svc.tasks.cancel",
    title: "Cancel a task",
    description:
      "Stop a task: a queued one at once, refunded; a running one gets cancel_requested_at and ends canceled, or " +
      "answers conflict when the model cannot stop (keep polling, never resubmit). A finished task answers as it is.",
  },
});

export const listVoicesOperation = defineOperation({
  operationId: "listVoices",
  method: "GET",
  path: "/v1/voices",
  summary: "Preset voices and your cloned voices",
  area: "voices",
  query: voiceListQuerySchema,
  responses: { 200: { description: "A page of voices", body: { schema: voiceListSchema, component: "VoiceList" } } },
  errors: ["invalid_request", "invalid_cursor"],
  run: (core, call) => listVoicesPage(core, call.tenantId, call.query),
  tool: {
    name: "svc.voices.list",
    title: "List voices",
    description:
      "Preset voices, then your cloned ones (newest first), each with the speech models it works on; pass a " +
      "voice_id as `voice` to svc.speech.synthesize.",
  },
});

export const uploadAssetOperation = defineOperation({
  operationId: "uploadAsset",
  method: "POST",
  path: "/v1/assets",
  summary: 'Upload media (base64 JSON) as your artifact; reference it as {type: "artifact", artifact_id} in media inputs',
  area: "assets",
  body: { schema: assetUploadSchema, component: "AssetUploadRequest", required: true },
  responses: { 201: { description: "The stored artifact", body: { schema: uploadedAssetSchema, component: "UploadedAsset" } } },
  errors: ["invalid_request", "invalid_media", "unsupported_media_type", "media_too_large"],
  run: (core, call) => uploadAsset(core, call.tenantId, call.body),
  tool: {
    name: "svc.assets.upload",
    title: "Upload media",
    description: (limits) =>
      `Store a file (base64, at most ${limits.assetUploadMaxBytes} bytes decoded) as your artifact; pass {type: "artifact", artifact_id} ` +
      "as any media input (image, video, voice sample, reference audio).",
  },
});

export const getCreditsOperation = defineOperation({
  operationId: "getCredits",
  method: "GET",
  path: "/v1/credits",
  summary: "Your credit balance and your ledger, newest first, a page at a time",
  area: "credits",
  query: creditsQuerySchema,
  responses: { 200: { description: "Your balance", body: { schema: creditBalanceSchema, component: "CreditBalance" } } },
  errors: ["invalid_request", "invalid_cursor"],
  run: (core, call) => creditBalanceView(core, call.tenantId, call.query),
  tool: { name: "svc.credits.get" },
});

export const createQuoteOperation = defineOperation({
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
  tool: { name: "svc.tasks.quote" },
});

// svc.models.list answers the model list, and with its arguments a model's or a capability's card.
export const listModelsOperation = defineOperation({
  operationId: "listModels",
  method: "GET",
  path: "/v1/models",
  summary: "Live models (OpenAI-compatible list)",
  area: "catalog",
  responses: { 200: { description: "The live models", body: { schema: modelListSchema, component: "ModelList" } } },
  errors: [],
  run: async (core) => modelList(await catalogState(core)),
  tool: { name: "svc.models.list" },
});

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
