import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { errorBody, InsufficientScopeError, refuseUnstorableText, ServiceError, type Core, type Grant } from "../core/index.js";
import { maxMessageBytes } from "./message-size.js";
import { findElided } from "./oversized-message.js";
import { serverInstructions } from "./instructions.js";
import { ARTIFACT_TEMPLATE, readArtifactResource } from "./resources.js";
import { toolFailure, toolSuccess } from "./results.js";
import { readTaskApp, TASK_APP_URI, taskAppResource } from "./task-app.js";
import { TasksServer } from "./tasks-extension/extension.js";
import { ServiceTasks } from "./tasks-extension/service-tasks.js";
import { createTaskResult, declaresTasks } from "./tasks-extension/wire.js";
import type { ToolNameStyle } from "./tools/tool-names.js";
import type { ToolSet } from "./tools/tool-set.js";
import type { ToolDefinition } from "./tools/types.js";

// Who is calling on one connection (stdio) or one HTTP request, and how that connection names the tools: the
// grant is re-read per call on stdio, so a revoked key stops working without a restart.
export interface McpSession {
  grant(): Promise<Grant>;
  requestId(): string;
  toolNames: ToolNameStyle;
}

// A message past the size limit reaches a tool with its long strings elided (mcp-server/oversized-message.ts): the
// call is refused as an upload past the limit is, at the field that held the string.
function refuseElided(core: Core, args: Record<string, unknown>): void {
  const elided = findElided(args);
  if (!elided) return;
  const messageLimit = maxMessageBytes(core.config);
  throw new ServiceError(
    "media_too_large",
    `${elided.param} holds ${elided.bytes} bytes, more than an MCP message may carry (${messageLimit} bytes in all). ` +
      `Upload media of at most ${core.config.assetUploadMaxBytes} bytes with svc.assets.upload, or pass larger media by HTTPS URL.`,
    { param: elided.param, details: { max_bytes: core.config.assetUploadMaxBytes, max_message_bytes: messageLimit, received_bytes: elided.bytes } },
  );
}

// Any one of a tool's scopes grants it; a refusal asks for the first, the tool's own.
function checkScopes(grant: Grant, tool: ToolDefinition): void {
  if (tool.scopes.some((scope) => grant.scopes.includes(scope))) return;
  throw new InsufficientScopeError([tool.scopes[0]], tool.scopes);
}

// One MCP server instance. The low-level Server, not McpServer: McpServer validates arguments itself and turns
// refusals into bare text errors, while here core validates and every failure is a structured error.
export function createMcpServer(core: Core, tools: ToolSet, session: McpSession): Server {
  const style = session.toolNames;
  const info = { name: "media-task-service", title: "Media task service", version: "0.1.0" };
  const options = { capabilities: { tools: {}, resources: {} }, instructions: serverInstructions(style) };
  const tasks = core.config.mcp.tasks ? new ServiceTasks(core, () => session.grant(), () => session.requestId(), style) : null;
  const server = tasks ? new TasksServer(info, options, tasks) : new Server(info, options);
  server.setRequestHandler("tools/list", async () => ({ tools: tools.listed(style) }));
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const requestId = session.requestId();
    const tool = tools.find(request.params.name);
    // A name no tool has is a protocol error, as the MCP specification lists it (-32602), not a tool result.
    if (!tool) {
      const message = `Unknown tool: ${request.params.name}; tools/list names every tool.`;
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, message, { error: errorBody("not_found", message, { requestId }) });
    }
    const progressToken = request.params._meta?.progressToken;
    try {
      const grant = await session.grant();
      // Checked before the tool runs, so a call without its scopes creates and charges nothing.
      checkScopes(grant, tool);
      refuseElided(core, request.params.arguments ?? {});
      refuseUnstorableText(request.params.arguments ?? {});
      const outcome = await tool.run(request.params.arguments ?? {}, {
        core,
        grant,
        requestId,
        toolNames: style,
        signal: ctx.mcpReq.signal,
        progress: async (update) => {
          if (progressToken === undefined) return;
          await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, ...update } });
        },
      });
      // A client that declared the Tasks extension on this call follows the task itself, in the background.
      if (tasks && outcome.createdTask && declaresTasks(ctx)) return createTaskResult(await tasks.wireTask(outcome.createdTask));
      return server.projectCallToolResult(toolSuccess(outcome), undefined);
    } catch (error) {
      return server.projectCallToolResult(toolFailure(error, requestId, style), undefined);
    }
  });
  // The task view is listed; artifacts are read by URI (task results link them), with no listing of every
  // artifact ever made.
  server.setRequestHandler("resources/list", async () => ({ resources: [taskAppResource(core.config)] }));
  server.setRequestHandler("resources/templates/list", async () => ({ resourceTemplates: [ARTIFACT_TEMPLATE] }));
  server.setRequestHandler("resources/read", async (request) =>
    request.params.uri === TASK_APP_URI ? readTaskApp(core.config) : readArtifactResource(core, await session.grant(), request.params.uri),
  );
  return server;
}
