import type { Area } from "../auth/areas.js";

export interface DocumentedRoute {
  method: "GET" | "POST" | "DELETE";
  path: string;
  summary: string;
  area: Area | null;
  response: "TaskEnvelope" | "TaskList" | "json" | "binary" | "html" | "openapi";
  successStatus?: number;
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
  { method: "GET", path: "/readyz", summary: "Readiness: the database answers", area: null, response: "json" },
];
