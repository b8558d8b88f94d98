import type { CallToolResult } from "@modelcontextprotocol/server";
import { errorBody, InsufficientScopeError, ServiceError } from "../core/index.js";
import { styledNames, type ToolNameStyle } from "./tools/tool-names.js";
import type { ToolOutcome } from "./tools/types.js";

// JSON-RPC 2.0: -32602 when the arguments are at fault (they name an invalid or unknown thing), -32603 for our own
// failures, -32000 (implementation-defined server error) for every other refusal of a well-formed call.
function jsonRpcCodeOf(type: string): number {
  if (type === "invalid_request_error" || type === "not_found_error") return -32602;
  if (type === "api_error") return -32603;
  return -32000;
}

// The structured result, also serialized as the first text content for hosts that only show text to the model.
export function toolSuccess(outcome: ToolOutcome): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(outcome.structured) }, ...(outcome.content ?? [])],
    structuredContent: outcome.structured,
    ...(outcome.meta ? { _meta: outcome.meta } : {}),
  };
}

// Every failure, validation included, in REST's error vocabulary plus the JSON-RPC code: in structuredContent
// and always in the text content, which every client passes to the model.
// Messages name tools in the connection's naming style, so the next step they suggest can be taken as written.
export function toolFailure(error: unknown, requestId: string, style: ToolNameStyle): CallToolResult {
  let body: Record<string, unknown> & { type: string; message: string };
  if (error instanceof InsufficientScopeError) {
    body = error.toBody(requestId);
  } else if (error instanceof ServiceError) {
    body = { ...error.toBody(requestId) };
  } else {
    console.error(`mcp: unexpected error in a tool call (request ${requestId}):`, error);
    body = { ...errorBody("internal_error", "Something went wrong on our side; retry with the same client_request_id.", { requestId }) };
  }
  const structured = { error: { ...body, message: styledNames(body.message, style), jsonrpc_code: jsonRpcCodeOf(body.type) } };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}
