import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A stand-in for the Anthropic Messages API on loopback, for an agent CLI (Claude Code) whose model calls must stay
// on this machine. It plays one scripted turn: when a request offers the tool named, it answers a tool_use of it
// with the arguments given; when the tool's result comes back, it answers a final text. Every other request (a
// title, a quota check) gets a short text. It records what it was offered, what the tool answered and every
// request it was sent (what a later turn tells the model of a task moved to the background).

type Json = Record<string, unknown>;
interface ContentBlock {
  type: string;
  id?: string;
  name?: string;
  input?: unknown;
  text?: string;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}
export interface MessagesRequest {
  stream?: boolean;
  model?: string;
  tools?: { name: string }[];
  messages?: { role: string; content: string | ContentBlock[] }[];
}

export interface ToolResult {
  content: unknown;
  isError: boolean;
}

export interface ModelStandIn {
  baseUrl: string;
  // The tool names of the first request that offered the tool.
  offeredTools: string[];
  toolResult: ToolResult | null;
  requests: MessagesRequest[];
  close(): Promise<void>;
}

const TOOL_USE_ID = "toolu_stand_in_1";

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

function message(model: string, content: ContentBlock[], stopReason: string): Json {
  return {
    id: `msg_stand_in_${Date.now()}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

// The same message as server-sent events, the way the API streams it.
function streamMessage(response: ServerResponse, whole: Json): void {
  const send = (event: string, data: Json) => response.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  send("message_start", { message: { ...whole, content: [], stop_reason: null } });
  (whole.content as ContentBlock[]).forEach((block, index) => {
    if (block.type === "tool_use") {
      send("content_block_start", { index, content_block: { ...block, input: {} } });
      send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    } else {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      send("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    }
    send("content_block_stop", { index });
  });
  send("message_delta", { delta: { stop_reason: whole.stop_reason, stop_sequence: null }, usage: { output_tokens: 1 } });
  send("message_stop", {});
  response.end();
}

export async function startModelStandIn(tool: { matches: (name: string) => boolean; input: Json }): Promise<ModelStandIn> {
  const standIn: ModelStandIn = { baseUrl: "", offeredTools: [], toolResult: null, requests: [], close: async () => undefined };
  const server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? "/", "http://stand-in").pathname;
      const body = await readBody(request);
      if (request.method !== "POST" || !path.startsWith("/v1/messages")) {
        response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: path } }));
        return;
      }
      const asked = JSON.parse(body) as MessagesRequest;
      if (path === "/v1/messages/count_tokens") {
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ input_tokens: 1 }));
        return;
      }
      standIn.requests.push(asked);
      const model = asked.model ?? "stand-in";
      const toolName = asked.tools?.map((offered) => offered.name).find(tool.matches);
      const blocks = (asked.messages ?? []).flatMap((turn) => (typeof turn.content === "string" ? [] : turn.content));
      const result = blocks.find((block) => block.type === "tool_result" && block.tool_use_id === TOOL_USE_ID);
      let answer: Json;
      if (result) {
        standIn.toolResult = { content: result.content, isError: result.is_error === true };
        answer = message(model, [{ type: "text", text: "The task was created." }], "end_turn");
      } else if (toolName) {
        if (standIn.offeredTools.length === 0) standIn.offeredTools = (asked.tools ?? []).map((offered) => offered.name);
        answer = message(model, [{ type: "tool_use", id: TOOL_USE_ID, name: toolName, input: tool.input }], "tool_use");
      } else {
        answer = message(model, [{ type: "text", text: "ok" }], "end_turn");
      }
      if (asked.stream) streamMessage(response, answer);
      else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    })().catch((error: unknown) => {
      response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  standIn.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return standIn;
}
