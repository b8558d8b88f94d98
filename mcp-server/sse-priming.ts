import { randomUUID } from "node:crypto";

// SEP-1699 (protocol 2025-11-25): a server answering a POST with an SSE stream should send at once an event of an
// id and empty data, so that a client whose stream breaks knows it may reconnect, and a retry field saying how
// long to wait first. The SDK writes that event only from an event store, which a stateless server has none of,
// so it is added here. Only for 2025-11-25 requests, known by their MCP-Protocol-Version header (an initialize,
// which carries its version in the body alone, is answered unprimed): older clients read an empty data field as a
// broken message, and 2026-07-28 has no stream resumption. A reconnection is answered 405 (no event is kept to replay): the client
// sends its request again, which client_request_id makes safe for a create.
const PRIMED_PROTOCOL_VERSIONS = new Set(["2025-11-25"]);
export const SSE_RETRY_MS = 2000;

export function primeEventStream(request: Request, response: Response): Response {
  if (request.method !== "POST" || !PRIMED_PROTOCOL_VERSIONS.has(request.headers.get("mcp-protocol-version") ?? "")) return response;
  if (response.body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
  const priming = new TextEncoder().encode(`id: ${randomUUID()}\nretry: ${SSE_RETRY_MS}\ndata: \n\n`);
  const primed = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        controller.enqueue(priming);
      },
    }),
  );
  return new Response(primed, { status: response.status, statusText: response.statusText, headers: response.headers });
}
