import type { IncomingMessage, ServerResponse } from "node:http";
import { protectedResourceMetadataUrl, ServiceError, type Config } from "../core/index.js";

// RFC 6750 §3: error_description holds printable ASCII without quotes or backslashes; a message may hold more
// (an ellipsis, a quoted credential), and Node refuses to send a header with such characters.
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, "?").replace(/["\\]/g, "'");
}

// RFC 6750 §3 with RFC 9728 §5.1: every 401 names the protected-resource metadata, so a client can discover
// where to get a token. `error="invalid_token"` only when a credential was sent: a bare request gets no error code.
export function challenge(config: Config, error: ServiceError, credentialSent: boolean): string {
  const parts = [`resource_metadata="${protectedResourceMetadataUrl(config)}"`];
  if (credentialSent) parts.push('error="invalid_token"', `error_description="${headerSafe(error.message)}"`);
  return `Bearer ${parts.join(", ")}`;
}

// An authentication refusal before any MCP message is read: a JSON-RPC error (its id unknown: the body is not read),
// so a client that parses every answer as a JSON-RPC message can, carrying REST's error in data.error, as the
// other refusals before the message do; the status and WWW-Authenticate say the same for HTTP-level clients.
export function refuseRequest(config: Config, request: IncomingMessage, response: ServerResponse, error: unknown, requestId: string): void {
  const known =
    error instanceof ServiceError
      ? error
      : new ServiceError("internal_error", "Something went wrong on our side while checking the credential; retry.");
  if (!(error instanceof ServiceError)) console.error(`mcp: authentication failed unexpectedly (request ${requestId}):`, error);
  const headers: Record<string, string> = { "content-type": "application/json", ...known.headers };
  if (known.httpStatus === 401) headers["www-authenticate"] = challenge(config, known, request.headers.authorization !== undefined);
  const body = { jsonrpc: "2.0", id: null, error: { code: -32000, message: known.message, data: { error: known.toBody(requestId) } } };
  response.writeHead(known.httpStatus, headers).end(JSON.stringify(body));
}
