import { z } from "zod";
import { CAPABILITIES } from "../capabilities/table.js";
import type { Capability } from "../capabilities/types.js";
import { documentedCallbackEventSchema } from "../operations/callback-schemas.js";
import { CREATE_ERRORS } from "../operations/create-errors.js";
import { isErrorCode, type ErrorCode } from "../errors/catalogue.js";
import { OPERATIONS, preferWaitHeaders } from "../operations/table.js";
import { documentedErrorEnvelopeSchema, documentedErrorSchema, documentedTaskSchema } from "../operations/task-envelope.js";
import type { Operation } from "../operations/types.js";
import { callbackWebhooks } from "./callback-documentation.js";
import { DocumentComponents } from "./components.js";
import { errorExampleComponents } from "./error-examples.js";
import {
  callbackEventExample,
  operationResponseExample,
  PARAMETER_EXAMPLES,
  queuedTaskExample,
  REQUEST_EXAMPLES,
  responseExamples,
} from "./response-examples.js";
import { errorResponses, HEADERS, responseHeaders } from "./responses.js";
import { IDEMPOTENCY_KEY_LENGTH, IDEMPOTENCY_KEY_MAX_CHARS } from "../idempotency/key-bounds.js";

// OpenAPI 3.1, generated from the capability table (task creation) and the operations table (everything else);
// every schema comes from zod, so a field's description is written once, where the field is.

const pascal = (id: string) => id.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());

// createSpeech, createImage, createImageToVideo…: `text_to_` is the default input and is left out.
export function capabilityOperationId(capability: Capability): string {
  return `create${pascal(capability.id.replace(/^text_to_/, ""))}`;
}

// Path, query and header parameters from zod objects, each with its schema, description and example.
function parameters(location: "path" | "query" | "header", schema: z.ZodObject | undefined) {
  if (!schema) return [];
  const generated = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(generated.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: location,
      required: location === "path" || (generated.required ?? []).includes(name),
      description,
      schema: rest,
      ...(PARAMETER_EXAMPLES[name] !== undefined ? { example: PARAMETER_EXAMPLES[name] } : {}),
    };
  });
}

// A JSON answer's media type with its example: the operation's own where it has one, else its component's.
function jsonContent(schema: { $ref: string }, example: unknown) {
  return { "application/json": { schema, ...(example !== undefined ? { examples: { example: { value: example } } } : {}) } };
}

function operationObject(operation: Operation, components: DocumentComponents, examples: Record<string, unknown>) {
  const authenticated = operation.area !== null;
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    const body = response.body;
    let content: Record<string, unknown> | undefined;
    if (body && "schema" in body) {
      content = jsonContent(components.schema(body.component, body.schema), operationResponseExample(operation.operationId, status) ?? examples[body.component]);
    }
    else if (body) content = { [body.mediaType]: { schema: body.mediaType === "application/json" ? { type: "object", description: body.text } : { type: "string", description: body.text } } };
    responses[status] = { description: response.description, headers: responseHeaders(authenticated, ...(response.headers ?? [])), ...(content ? { content } : {}) };
  }
  Object.assign(responses, errorResponses(operation.errors, authenticated, operation.method === "POST"));
  const params = [...parameters("path", operation.params), ...parameters("query", operation.query), ...parameters("header", operation.headers)];
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.summary,
    tags: [operation.area === "capability" ? "tasks" : (operation.area ?? "service")],
    // The API key area the route needs ("capability": the area of the capability the body names).
    ...(authenticated ? { "x-api-key-area": operation.area } : { security: [] }),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(operation.body
      ? {
          requestBody: components.requestBody(operation.body.component, {
            schema: operation.body.schema,
            required: operation.body.required,
            description: `The body of ${operation.operationId}`,
            example: operation.body.example ?? REQUEST_EXAMPLES[operation.body.component],
          }),
        }
      : {}),
    responses,
  };
}

function capabilityOperation(capability: Capability, components: DocumentComponents) {
  return {
    operationId: capabilityOperationId(capability),
    summary: capability.summary,
    description: `${capability.summary.replace(/\.$/, "")}. Answers 202 with the task, status queued; poll GET /v1/tasks/{task_id} until it ends.`,
    tags: [capability.area],
    "x-api-key-area": capability.area,
    "x-capability": capability.id,
    "x-mcp-tool": capability.tool.name,
    parameters: [
      ...parameters("header", preferWaitHeaders),
      {
        name: "Idempotency-Key",
        in: "header",
        required: true,
        description: `${IDEMPOTENCY_KEY_LENGTH}; the same key and body within 24 hours returns the original task`,
        schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_CHARS },
        example: PARAMETER_EXAMPLES["Idempotency-Key"],
      },
    ],
    requestBody: components.requestBody(`${pascal(capability.id)}Request`, {
      schema: capability.inputSchema,
      required: true,
      description: `The ${capability.id} request`,
      example: capability.example,
    }),
    responses: {
      "202": {
        description: "Admitted: the task envelope, status queued",
        headers: responseHeaders(true, "Idempotent-Replayed", "Preference-Applied", "Deprecation", "Sunset"),
        content: jsonContent({ $ref: "#/components/schemas/TaskEnvelope" }, queuedTaskExample(capability)),
      },
      ...errorResponses(CREATE_ERRORS, true, true),
    },
  };
}

// The codes an operation's refusal answers carry (their examples are named by code).
function refusalCodes(operation: unknown): ErrorCode[] {
  const responses = Object.entries((operation as { responses: Record<string, { content?: Record<string, { examples?: object }> }> }).responses);
  return responses.flatMap(([, response]) => Object.keys(response.content?.["application/json"]?.examples ?? {}).filter(isErrorCode));
}

export function buildOpenApiDocument(serverUrl: string) {
  const components = new DocumentComponents();
  components.schema("TaskEnvelope", documentedTaskSchema);
  components.schema("Error", documentedErrorSchema);
  components.schema("ErrorEnvelope", documentedErrorEnvelopeSchema);
  components.schema("CallbackEvent", documentedCallbackEventSchema);

  const examples = responseExamples();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const capability of CAPABILITIES) paths[capability.path] = { post: capabilityOperation(capability, components) };
  for (const operation of OPERATIONS) {
    paths[operation.path] = { ...paths[operation.path], [operation.method.toLowerCase()]: operationObject(operation, components, examples) };
  }
  const refusals = Object.values(paths).flatMap((methods) => Object.values(methods).flatMap(refusalCodes));

  return {
    openapi: "3.1.0",
    info: {
      title: "Media task service",
      version: "0.1.0",
      description:
        "Asynchronous media generation and understanding. Every task-creating call answers 202 with a task; poll " +
        "GET /v1/tasks/{task_id} until it is terminal, then download its output.artifacts[].url. Errors carry a code " +
        "from the ErrorEnvelope schema's enum.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: serverUrl, description: "This deployment" }],
    tags: [...new Set([...CAPABILITIES.map((c) => c.area), ...OPERATIONS.map((o) => (o.area === "capability" ? "tasks" : (o.area ?? "service")))])].map((name) => ({
      name,
      description: name === "service" ? "Unauthenticated service routes" : `Routes of the API key area ${name}`,
    })),
    webhooks: callbackWebhooks(callbackEventExample()),
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "An API key, sk_<region>_…, as a bearer token" } },
      headers: HEADERS,
      examples: errorExampleComponents(refusals),
      ...components.render(),
    },
    paths,
  };
}
