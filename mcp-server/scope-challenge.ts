import type { IncomingMessage, ServerResponse } from "node:http";
import { InsufficientScopeError, protectedResourceMetadataUrl, type Config, type Grant } from "../core/index.js";
import type { ToolSet } from "./tools/tool-set.js";

// MCP's step-up authorization, when MCP_SCOPE_CHALLENGE is on: a tools/call whose tool needs a scope the grant
// lacks is answered before the tool is reached, with HTTP 403 and a challenge naming the scope (RFC 6750 §3.1),
// so a host re-authorizes for it and retries. Off, the call reaches the tool and answers the insufficient_scope
// tool result, which every host shows its model. The message is read here to find the tool, then handed on parsed.

export type ReadMessage = { message: unknown } | { refusal: "too_large" | "unparseable" };

export async function readMessage(request: IncomingMessage, maxBytes: number): Promise<ReadMessage> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return { refusal: "too_large" };
    chunks.push(chunk);
  }
  try {
    return { message: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown };
  } catch {
    return { refusal: "unparseable" };
  }
}

// The first tools/call of the message whose tool the grant may not call: what the challenge asks for.
export function insufficientScope(message: unknown, tools: ToolSet, grant: Grant): InsufficientScopeError | null {
  for (const entry of Array.isArray(message) ? message : [message]) {
    const call = entry as { method?: unknown; params?: { name?: unknown } } | null;
    if (call?.method !== "tools/call" || typeof call.params?.name !== "string") continue;
    const tool = tools.find(call.params.name);
    if (tool && !tool.scopes.some((scope) => grant.scopes.includes(scope))) return new InsufficientScopeError([tool.scopes[0]], tool.scopes);
  }
  return null;
}

export function refuseInsufficientScope(config: Config, response: ServerResponse, error: InsufficientScopeError, requestId: string): void {
  const scope = error.missing.join(" ");
  const challenge = `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${protectedResourceMetadataUrl(config)}", error_description="This tool needs the scope ${scope}"`;
  response.writeHead(403, { "content-type": "application/json", "www-authenticate": challenge }).end(JSON.stringify({ error: error.toBody(requestId) }));
}

// What the SDK answers a body that is not JSON, for a message read here.
export function refuseUnparseable(response: ServerResponse): void {
  response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the request body is not valid JSON" } }));
}
