import type { z } from "zod";
import type { uploadAsset } from "../assets/upload.js";
import type { Area } from "../auth/areas.js";
import type { catalogState } from "../published-catalog/cards.js";
import type { ErrorCode } from "../errors/catalogue.js";
import type { createSigningKey } from "../signing-keys/keys.js";
import type { cancelTaskRequest } from "../tasks/cancel-request.js";
import type { findTaskByIdempotencyKey } from "../tasks/idempotency-lookup.js";
import type { getTask, listTasksPage } from "../tasks/read.js";
import type { waitForTask, WaitOptions } from "../tasks/task-wait.js";

// What an operation's use case is handed: the parts of the runtime the use cases take. Those of the task use cases,
// the upload and the signing keys hold those every other use case takes, and the model cards ask which vendor
// families are live and which can stop running work; the compiler checks each operation's `run` against it, and the surfaces pass their Core.
export type UseCaseRuntime = Parameters<typeof getTask>[0] &
  Parameters<typeof listTasksPage>[0] &
  Parameters<typeof findTaskByIdempotencyKey>[0] &
  Parameters<typeof waitForTask>[0] &
  Parameters<typeof cancelTaskRequest>[0] &
  Parameters<typeof uploadAsset>[0] &
  Parameters<typeof createSigningKey>[0] &
  Parameters<typeof catalogState>[0];

// What a use case receives from any surface: the authenticated tenant and the request's raw parts, which the use
// case validates itself (so REST and MCP refuse the same input with the same error). A row's use case sees its
// path parameters and query typed from the row's schemas (define.ts); the surfaces hand over any row's alike.
export interface OperationCall<Params = Readonly<Record<string, unknown>>, Query = Readonly<Record<string, unknown>>> {
  tenantId: string;
  params: Params;
  query: Query;
  body: unknown;
  // Set when the caller asked to be answered once the task has ended (REST's Prefer: wait=N), for the operations
  // whose answer documents Preference-Applied.
  wait?: WaitOptions;
}

// A use case's answer at a status other than the operation's first documented one (a cancel that could only be
// requested answers 202, one that ended the task 200).
export class StatusAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

// One answer of an operation: a JSON body described by a zod schema (a named component of the OpenAPI
// document), or a body of another media type.
export type OperationBody =
  | { schema: z.ZodType; component: string }
  | { mediaType: "application/octet-stream" | "audio/mpeg" | "text/html" | "text/plain" | "text/event-stream" | "application/json"; text: string };

export interface OperationResponse {
  description: string;
  // Response headers beyond the request id and rate-limit ones every answer carries.
  headers?: readonly ("Preference-Applied" | "Idempotent-Replayed")[];
  body?: OperationBody;
}

export interface Operation {
  operationId: string;
  // What the route is beside the API's operations (absent: an operation of the API, which clients and MCP tools
  // mirror). "page": what the REST server serves people and tools beside the API (the console, the reference,
  // the document itself). "probe": what every process answers its orchestrator and Prometheus, served by
  // http-face/probes.ts in each of them (the REST server's are described here with the rest of its routes).
  kind?: "page" | "probe";
  method: "GET" | "POST" | "DELETE";
  // OpenAPI form: /v1/voices/{voice_id}
  path: string;
  summary: string;
  // The API key area the route requires: "capability" when it is the area of the capability the request names;
  // null for the unauthenticated routes.
  area: Area | "capability" | null;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: { schema: z.ZodType; component: string; example?: Record<string, unknown>; required: boolean };
  // Success answers by HTTP status.
  responses: Record<number, OperationResponse>;
  // The refusals particular to this operation; authentication, area, rate limit and internal errors are added to
  // every authenticated operation.
  errors: readonly ErrorCode[];
  // The use case. The REST server answers an operation without one with a handler keyed by its operationId
  // (streams, signed downloads, quotes, the pages; rest-server/routes/hand-written-route.ts). Its answer is sent
  // with the first status of `responses`, or as a StatusAnswer says.
  run?: (core: UseCaseRuntime, call: OperationCall) => Promise<unknown>;
  // The MCP tool that mirrors this operation (svc.<area>.<verb>); a test holds the tool list to the table.
  tool?: OperationTool;
}

// What a process's tools may quote of its configuration (the upload tool, its byte limit; the MCP server hands its
// Config).
export interface ToolLimits {
  assetUploadMaxBytes: number;
}

// A tool whose arguments are its operation's own path parameters, query and body fields is generated from the row
// (mcp-server/tools/mirrored-tool.ts), and what tools/list says of it is written here, beside the schemas it
// describes. One that takes arguments of its own is written in mcp-server/tools/ and takes only its name from here.
export type OperationTool = { name: string } | GeneratedTool;

export interface GeneratedTool {
  name: string;
  title: string;
  description: string | ((limits: ToolLimits) => string);
}
