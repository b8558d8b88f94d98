import { z } from "zod";
import { assetUploadSchema } from "../assets/upload.js";
import { CAPABILITIES } from "../capabilities/table.js";
import { ERROR_CATALOGUE } from "../errors/catalogue.js";
import { errorEnvelopeSchema, taskEnvelopeSchema } from "../contracts/envelope-schema.js";
import { callbackSchemas, callbackWebhooks } from "./callback-documentation.js";
import { DOCUMENTED_ROUTES, type DocumentedRoute } from "./routes.js";

// OpenAPI 3.1, generated from the capability table, the shared wire schemas and the documented route list.

function jsonSchema(schema: z.ZodType, io: "input" | "output" = "output") {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete generated.$schema;
  return generated;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("ErrorEnvelope") } },
});

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
}

function commonErrors(authenticated: boolean) {
  const responses: Record<string, unknown> = {};
  if (authenticated) {
    responses["401"] = errorResponse("unauthorized or invalid_api_key");
    responses["403"] = errorResponse("tenant_disabled or forbidden");
  }
  responses["422"] = errorResponse("invalid_request");
  return responses;
}

function successContent(route: DocumentedRoute) {
  switch (route.response) {
    case "TaskEnvelope":
    case "TaskList":
    case "CallbackSigningKey":
    case "CallbackSigningKeyList":
      return { "application/json": { schema: ref(route.response) } };
    case "binary":
      return { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } };
    case "html":
      return { "text/html": { schema: { type: "string" } } };
    case "text":
      return { "text/plain": { schema: { type: "string" } } };
    default:
      return { "application/json": { schema: { type: "object" } } };
  }
}

function documentedOperation(route: DocumentedRoute) {
  const parameters = [
    ...pathParameters(route.path),
    ...(route.query ?? []).map((q) => ({ name: q.name, in: "query", required: false, description: q.description, schema: { type: "string" } })),
  ];
  const responses: Record<string, unknown> = {
    [String(route.successStatus ?? 200)]: { description: route.summary, content: successContent(route) },
    ...(route.area ? commonErrors(true) : {}),
  };
  if (route.path.includes("{")) responses["404"] = errorResponse("not found (task_not_found, not_found, artifact_not_found…)");
  if (route.path.endsWith("/cancel")) responses["409"] = errorResponse("conflict: execution continues, keep polling");
  for (const [status, description] of Object.entries(route.errors ?? {})) responses[status] = errorResponse(description);
  return {
    summary: route.summary,
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[{}]/g, "").replace(/[/.-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    ...(route.area ? { tags: [route.area] } : { tags: ["service"], security: [] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.requestBody
      ? {
          requestBody: {
            required: false,
            content: { "application/json": { schema: ref(route.requestBody), ...(route.requestExample ? { example: route.requestExample } : {}) } },
          },
        }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = {
    TaskEnvelope: jsonSchema(taskEnvelopeSchema),
    ErrorEnvelope: jsonSchema(errorEnvelopeSchema),
    AssetUploadRequest: jsonSchema(assetUploadSchema, "input"),
    ...callbackSchemas(jsonSchema),
    TaskList: {
    type: "object",
    properties: {
      object: { const: "list" },
      data: { type: "array", items: ref("TaskEnvelope") },
      has_more: { type: "boolean" },
      next_cursor: { type: ["string", "null"] },
    },
      required: ["object", "data", "has_more", "next_cursor"],
    },
  };

  for (const capability of CAPABILITIES) {
    const requestName = `${capability.id.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())}Request`;
    schemas[requestName] = jsonSchema(capability.inputSchema, "input");
    paths[capability.path] = {
      post: {
        summary: capability.summary,
        operationId: capability.id,
        tags: [capability.area],
        "x-capability": capability.id,
        "x-mcp-tool": capability.tool.name,
        parameters: [
          {
            name: "Idempotency-Key",
            in: "header",
            required: true,
            description: "1 to 128 characters; the same key and body within 24 hours returns the original task",
            schema: { type: "string", minLength: 1, maxLength: 128 },
          },
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: ref(requestName), example: capability.example } },
        },
        responses: {
          "202": { description: "Admitted: the task envelope, status queued", content: { "application/json": { schema: ref("TaskEnvelope") } } },
          "400": errorResponse("unsupported_model, api_key_region_mismatch, safety_rejected"),
          ...commonErrors(true),
          "402": errorResponse("insufficient_balance: nothing was created or charged"),
          "404": errorResponse("voice_not_found, artifact_not_found, callback_signing_key_not_found"),
          "409": errorResponse("idempotency_conflict or request_in_progress"),
        },
      },
    };
  }
  for (const route of DOCUMENTED_ROUTES) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: documentedOperation(route) };
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Media task service",
      version: "0.1.0",
      description:
        "Asynchronous media generation and understanding. Every task-creating call answers 202 with a task; poll " +
        `GET /v1/tasks/{task_id} until it is terminal. Error codes: ${Object.keys(ERROR_CATALOGUE).join(", ")}.`,
    },
    servers: [{ url: serverUrl }],
    webhooks: callbackWebhooks(),
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "API key sk_<region>_…" } },
      schemas,
    },
    paths,
  };
}
