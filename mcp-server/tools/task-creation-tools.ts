import { CAPABILITIES, createTask, failure, invalidRequest, scopeFor, type Capability } from "../../core/index.js";
import { jsonSchemaOf } from "./json-schema.js";
import { OUTPUT_SCHEMAS } from "./output-schemas.js";
import { taskOutcome } from "./task-outcome.js";
import type { ToolDefinition } from "./types.js";

const CLIENT_REQUEST_ID = {
  type: "string",
  minLength: 1,
  maxLength: 128,
  description:
    "Your identity for this piece of work (a fresh UUID per new request). Calling again with the same id and the same " +
    "arguments returns the same task and charges once; the same id with different arguments is refused (idempotency_conflict).",
};

const IDEMPOTENCY_NOTE =
  " Requires client_request_id: reuse it to retry safely after a lost answer, never to submit new work. The answer is a " +
  "task in status queued; do not call this tool again for the same work while the task is queued or running.";

// The capability's own input schema, as core validates it, plus client_request_id: the tool-side Idempotency-Key.
function inputSchemaOf(capability: Capability): Record<string, unknown> {
  const schema = jsonSchemaOf(capability.inputSchema, "input");
  const properties = { client_request_id: CLIENT_REQUEST_ID, ...(schema.properties as Record<string, unknown>) };
  const required = ["client_request_id", ...((schema.required as string[] | undefined) ?? [])];
  return { ...schema, properties, required };
}

// client_request_id is refused here, where its place in the arguments is known, so `param` can point at it.
function splitClientRequestId(args: Record<string, unknown>): { clientRequestId: string; body: Record<string, unknown> } {
  const { client_request_id: clientRequestId, ...body } = args;
  if (typeof clientRequestId !== "string" || clientRequestId.length < 1 || clientRequestId.length > 128) {
    throw invalidRequest([failure(["client_request_id"], "is required: a string of 1 to 128 characters, one per logical request")]);
  }
  return { clientRequestId, body };
}

function creationTool(capability: Capability): ToolDefinition {
  return {
    name: capability.tool.name,
    title: capability.tool.title,
    description: capability.tool.description + IDEMPOTENCY_NOTE,
    inputSchema: inputSchemaOf(capability),
    outputSchema: OUTPUT_SCHEMAS.task,
    // Idempotent through client_request_id; open-world because the work runs on a vendor's model.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    scopes: [scopeFor(capability.area, "write")],
    async run(args, call) {
      const { clientRequestId, body } = splitClientRequestId(args);
      // Core validates the body exactly as for REST, so a refusal carries the same code, param and details.
      const result = await createTask(call.core, capability.id, body, {
        tenantId: call.grant.tenantId,
        idempotencyKey: clientRequestId,
        requestId: call.requestId,
        surface: "mcp",
      });
      return taskOutcome(result.task, result.replayed ? { "svc/idempotent_replayed": true } : undefined);
    },
  };
}

// One tool per task-creating capability, generated from the table: no schema is written twice.
export function taskCreationTools(): ToolDefinition[] {
  return CAPABILITIES.map(creationTool);
}
