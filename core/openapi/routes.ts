import type { Area } from "../auth/areas.js";

export interface DocumentedRoute {
  method: "GET" | "POST" | "DELETE";
  path: string;
  summary: string;
  area: Area | null;
  response: "TaskEnvelope" | "TaskList" | "CallbackSigningKey" | "CallbackSigningKeyList" | "json" | "binary" | "html" | "text" | "openapi";
  successStatus?: number;
  // A component schema for the (optional) JSON body, and an example of it.
  requestBody?: "CreateCallbackSigningKeyRequest" | "RotateCallbackSigningKeyRequest" | "AssetUploadRequest";
  requestExample?: Record<string, unknown>;
  // Refusals beyond the common ones, by HTTP status.
  errors?: Record<string, string>;
  query?: { name: string; description: string }[];
}

// Every route besides the task-creating ones (those come from the capability table). The OpenAPI test checks this
// list against the routes the REST server really registers, so neither can drift from the other.
export const DOCUMENTED_ROUTES: readonly DocumentedRoute[] = [
  {
    method: "GET",
    path: "/v1/tasks",
    summary: "List your tasks, newest first",
    area: "tasks",
    response: "TaskList",
    query: [
      { name: "limit", description: "1 to 100, default 20" },
      { name: "cursor", description: "next_cursor of the previous page" },
      { name: "status", description: "only tasks in this status" },
      { name: "capability", description: "only tasks of this capability" },
    ],
  },
  { method: "GET", path: "/v1/tasks/{task_id}", summary: "Read a task", area: "tasks", response: "TaskEnvelope" },
  // h16a (issue 16): the task's event stream and quotes.
  {
    method: "GET",
    path: "/v1/tasks/{task_id}/events",
    summary: "The task's status and progress as server-sent events, then the final envelope; the stream ends with the task (Last-Event-ID resumes)",
    area: "tasks",
    response: "text",
    errors: { "404": "task_not_found" },
  },
  {
    method: "POST",
    path: "/v1/quotes",
    summary: "A create's body with its capability beside its fields: the resolved model, the selection reason, the price and the hold, or the create's refusal; nothing is held or created (the key needs the capability's area)",
    area: "tasks",
    response: "json",
  },
  {
    method: "POST",
    path: "/v1/tasks/{task_id}/cancel",
    summary: "Cancel a task: a terminal task answers its final state; a running task that cannot be stopped answers 409",
    area: "tasks",
    response: "TaskEnvelope",
  },
  { method: "GET", path: "/v1/tasks/{task_id}/assets", summary: "A task's artifacts with fresh signed URLs", area: "tasks", response: "json" },
  { method: "GET", path: "/v1/credits", summary: "Your credit balance and recent ledger entries", area: "credits", response: "json" },
  {
    method: "GET",
    path: "/v1/voices",
    summary: "Preset voices and your cloned voices",
    area: "voices",
    response: "json",
    query: [
      { name: "limit", description: "1 to 100, default 20" },
      { name: "cursor", description: "next_cursor of the previous page" },
    ],
  },
  { method: "GET", path: "/v1/voices/{voice_id}", summary: "One voice", area: "voices", response: "json" },
  { method: "DELETE", path: "/v1/voices/{voice_id}", summary: "Delete a cloned voice (presets cannot be deleted: 409)", area: "voices", response: "json" },
  {
    method: "POST",
    path: "/v1/tasks/{task_id}/callback/redeliver",
    summary: "One more delivery attempt of a terminal task's callback event (same event_id), once its scheduled attempts have settled",
    area: "tasks",
    response: "TaskEnvelope",
    successStatus: 202,
    errors: { "409": "conflict: the task is not terminal, has no callback_url, or a delivery is already scheduled", "422": "callback_signing_key_inactive" },
  },
  {
    method: "POST",
    path: "/v1/callback-signing-keys",
    summary: "Create a callback signing key; the answer carries its secret, shown this once",
    area: "callbacks",
    response: "CallbackSigningKey",
    successStatus: 201,
    requestBody: "CreateCallbackSigningKeyRequest",
    requestExample: { name: "orders receiver" },
  },
  {
    method: "GET",
    path: "/v1/callback-signing-keys",
    summary: "Your callback signing keys, newest first (never their secrets)",
    area: "callbacks",
    response: "CallbackSigningKeyList",
    query: [
      { name: "limit", description: "1 to 100, default 20" },
      { name: "cursor", description: "next_cursor of the previous page" },
    ],
  },
  {
    method: "GET",
    path: "/v1/callback-signing-keys/{key_id}",
    summary: "One callback signing key",
    area: "callbacks",
    response: "CallbackSigningKey",
  },
  {
    method: "POST",
    path: "/v1/callback-signing-keys/{key_id}/rotate",
    summary: "Replace the key's secret (shown this once); the old secret keeps signing alongside for the grace period",
    area: "callbacks",
    response: "CallbackSigningKey",
    requestBody: "RotateCallbackSigningKeyRequest",
    requestExample: { grace_period_seconds: 86400 },
    errors: { "422": "callback_signing_key_inactive: a retired key cannot be rotated" },
  },
  {
    method: "POST",
    path: "/v1/callback-signing-keys/{key_id}/retire",
    summary: "Retire a key for good: new tasks cannot choose it and deliveries are no longer signed with it",
    area: "callbacks",
    response: "CallbackSigningKey",
  },
  {
    method: "POST",
    path: "/v1/assets",
    summary: "Upload media (base64 JSON) as your artifact; reference it as {type: \"artifact\", artifact_id} in media inputs",
    area: "assets",
    response: "json",
    successStatus: 201,
    requestBody: "AssetUploadRequest",
    errors: { "413": "media_too_large: above ASSET_UPLOAD_MAX_BYTES" },
  },
  { method: "GET", path: "/v1/models", summary: "Live models (OpenAI-compatible list)", area: "catalog", response: "json" },
  { method: "GET", path: "/v1/catalog/models", summary: "Same list as /v1/models", area: "catalog", response: "json" },
  { method: "GET", path: "/v1/catalog/models/{model}", summary: "One model's card: constraints and prices", area: "catalog", response: "json" },
  { method: "GET", path: "/v1/catalog/capabilities", summary: "Every capability", area: "catalog", response: "json" },
  {
    method: "GET",
    path: "/v1/catalog/capabilities/{capability}",
    summary: "One capability's card: input schema and model cards",
    area: "catalog",
    response: "json",
  },
  {
    method: "GET",
    path: "/v1/artifacts/{artifact_id}/content",
    summary: "Download an artifact through its signed URL (no API key: the signature is the credential)",
    area: null,
    response: "binary",
    query: [
      { name: "expires", description: "expiry, Unix seconds" },
      { name: "signature", description: "URL signature" },
    ],
  },
  { method: "GET", path: "/v1/openapi.json", summary: "This document", area: null, response: "openapi" },
  { method: "GET", path: "/v1/docs", summary: "Readable API reference", area: null, response: "html" },
  { method: "GET", path: "/healthz", summary: "Liveness", area: null, response: "json" },
  {
    method: "GET",
    path: "/readyz",
    summary: "Readiness: the database answers, is migrated, and a worker is taking jobs (503 with the failing check otherwise)",
    area: null,
    response: "json",
  },
  { method: "GET", path: "/metrics", summary: "Prometheus metrics of this replica", area: null, response: "text" },
];
