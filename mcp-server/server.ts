import { Server } from "@modelcontextprotocol/server";
import { InsufficientScopeError, missingScopes, refuseUnstorableText, ServiceError, type Core, type Grant } from "../core/index.js";
import { serverInstructions } from "./instructions.js";
import { toolFailure, toolSuccess } from "./results.js";
import type { ToolSet } from "./tools/tool-set.js";

// Who is calling on one connection (stdio) or one HTTP request: the grant is re-read per call on stdio, so a
// revoked key stops working without a restart.
export interface McpSession {
  grant(): Promise<Grant>;
  requestId(): string;
}

// One MCP server instance. The low-level Server, not McpServer: McpServer validates arguments itself and turns
// refusals into bare text errors, while here core validates and every failure is a structured error.
export function createMcpServer(core: Core, tools: ToolSet, session: McpSession): Server {
  const server = new Server(
    { name: "media-task-service", title: "Media task service", version: "0.1.0" },
    { capabilities: { tools: {} }, instructions: serverInstructions(core.config.mcp.toolNames) },
  );
  server.setRequestHandler("tools/list", async () => ({ tools: tools.listed }));
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const requestId = session.requestId();
    const tool = tools.find(request.params.name);
    const progressToken = request.params._meta?.progressToken;
    try {
      if (!tool) throw new ServiceError("not_found", `No tool ${request.params.name}; tools/list names every tool.`);
      const grant = await session.grant();
      // Checked before the tool runs, so a call without its scopes creates and charges nothing.
      const missing = missingScopes(grant.scopes, tool.scopes);
      if (missing.length > 0) throw new InsufficientScopeError(missing, tool.scopes);
      refuseUnstorableText(request.params.arguments ?? {});
      const outcome = await tool.run(request.params.arguments ?? {}, {
        core,
        grant,
        requestId,
        signal: ctx.mcpReq.signal,
        progress: async (update) => {
          if (progressToken === undefined) return;
          await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, ...update } });
        },
      });
      return server.projectCallToolResult(toolSuccess(outcome), tool.outputSchema);
    } catch (error) {
      return server.projectCallToolResult(toolFailure(error, requestId), undefined);
    }
  });
  return server;
}
