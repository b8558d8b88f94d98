import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { authenticateBearer, createAccessTokenVerifier, type Core } from "../core/index.js";
import { maxMessageBytes } from "./message-size.js";
import { newRequestId } from "../http-face/request-id.js";
import { createMcpServer } from "./server.js";
import { buildToolSet } from "./tools/tool-set.js";
import type { ToolNameStyle } from "./tools/tool-names.js";

// MCP over this process's stdin/stdout for desktop hosts, as one credential (an API key or an access token).
// Resolves when the host closes stdin. The credential is checked once up front, so a bad one fails the start
// with a message instead of every call, and again on every call, so revoking it takes effect at once.
export async function serveMcpOverStdio(core: Core, credential: string, toolNames: ToolNameStyle = core.config.mcp.toolNames): Promise<void> {
  const verifier = createAccessTokenVerifier(core.config);
  const authorization = `Bearer ${credential}`;
  await authenticateBearer(core, verifier, authorization);
  const tools = buildToolSet(core.config);
  const session = { grant: () => authenticateBearer(core, verifier, authorization), requestId: newRequestId, toolNames };
  const ended = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  const handle = serveStdio(() => createMcpServer(core, tools, session), {
    transport: new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: maxMessageBytes(core.config) }),
    onerror: (error) => console.error("mcp:", error),
  });
  await ended;
  await handle.close();
}
