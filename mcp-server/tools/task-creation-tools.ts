import {
  CAPABILITIES,
  createTask,
  failure,
  findCapability,
  IDEMPOTENCY_KEY_LENGTH,
  IDEMPOTENCY_KEY_MAX_CHARS,
  invalidRequest,
  scopeFor,
  ServiceError,
  type Capability,
} from "../../core/index.js";
import { TASK_APP_TOOL_META } from "../task-app.js";
import { CLIENT_REQUEST_ID, compactTools, type CompactTool } from "./compact-schema.js";
import { jsonSchemaOf } from "./json-schema.js";
import { taskOutcome } from "./task-outcome.js";
import { underscored } from "./tool-names.js";
import type { ToolDefinition } from "./types.js";

// The capability's own input schema, as core validates it, plus client_request_id: the tool-side Idempotency-Key.
// svc.models.list serves it with the capability; tools/list advertises its compact form.
export function fullInputSchemaOf(capability: Capability): Record<string, unknown> {
  const schema = jsonSchemaOf(capability.inputSchema, "input");
  const properties = { client_request_id: CLIENT_REQUEST_ID, ...(schema.properties as Record<string, unknown>) };
  const required = ["client_request_id", ...((schema.required as string[] | undefined) ?? [])];
  return { ...schema, properties, required };
}

// The capability a tool argument names, by its id (text_to_speech) or its tool's name in either spelling.
export function capabilityNamed(name: string, param: string): Capability {
  const capability = findCapability(name) ?? CAPABILITIES.find((c) => c.tool.name === name || underscored(c.tool.name) === name);
  if (!capability) {
    throw new ServiceError("unsupported_capability", `No capability or task-creating tool ${name}; svc.models.list shows the capabilities of every model.`, { param });
  }
  return capability;
}

// client_request_id is refused here, where its place in the arguments is known, so `param` can point at it.
function splitClientRequestId(args: Record<string, unknown>): { clientRequestId: string; body: Record<string, unknown> } {
  const { client_request_id: clientRequestId, ...body } = args;
  if (typeof clientRequestId !== "string" || clientRequestId.length < 1 || clientRequestId.length > IDEMPOTENCY_KEY_MAX_CHARS) {
    throw invalidRequest([failure(["client_request_id"], `is required: a string of ${IDEMPOTENCY_KEY_LENGTH}, one per logical request`)]);
  }
  return { clientRequestId, body };
}

function creationTool(capability: Capability, { inputSchema, otherArguments }: CompactTool): ToolDefinition {
  return {
    name: capability.tool.name,
    title: capability.tool.title,
    description: capability.tool.description + otherArguments,
    inputSchema,
    // Idempotent through client_request_id; open-world because the work runs on a vendor's model.
    annotations: { destructiveHint: false, idempotentHint: true },
    meta: TASK_APP_TOOL_META,
    scopes: [scopeFor(capability.area, "write")],
    async run(args, call) {
      const { clientRequestId, body } = splitClientRequestId(args);
      // Core validates the body exactly as for REST, so a refusal carries the same code, param and details.
      const result = await createTask(call.core, capability.id, body, {
        tenantId: call.grant.tenantId,
        // An API key's id, or the key an access token was issued for: its spend limit applies either way.
        apiKeyId: call.grant.subject,
        idempotencyKey: clientRequestId,
        requestId: call.requestId,
        surface: "mcp",
      });
      const outcome = await taskOutcome(call, result.task, { created: true, ...(result.replayed ? { meta: { "svc/idempotent_replayed": true } } : {}) });
      return { ...outcome, createdTask: result.task };
    },
  };
}

// One tool per task-creating capability, generated from the table: no schema is written twice.
export function taskCreationTools(): ToolDefinition[] {
  const compact = compactTools(CAPABILITIES.map((capability) => ({ fullSchema: fullInputSchemaOf(capability), example: capability.example })));
  return CAPABILITIES.map((capability, i) => creationTool(capability, compact[i] as CompactTool));
}
