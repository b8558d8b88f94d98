import type { Core } from "../core/index.js";
import { serveMcpOverStdio } from "../mcp-server/stdio.js";
import { CONNECTION_STYLES, type ToolNameStyle } from "../mcp-server/tools/tool-names.js";

// On stdio, stdout carries the protocol: anything else this process would print (a library's log line included)
// goes to stderr, where MCP hosts collect a server's diagnostics.
export function reserveStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}

// `svc mcp`: the MCP server on stdin/stdout for desktop hosts, acting as SVC_API_KEY (an API key or an access
// token). Returns when the host closes stdin.
export async function runMcpCommand(core: Core, toolNames: string | undefined): Promise<number> {
  const credential = process.env.SVC_API_KEY;
  if (!credential) throw new Error("SVC_API_KEY must hold the API key (or access token) the MCP server acts as");
  if (toolNames !== undefined && !(CONNECTION_STYLES as readonly string[]).includes(toolNames)) {
    throw new Error(`--tool-names takes ${CONNECTION_STYLES.join(" or ")}, not ${toolNames}`);
  }
  await serveMcpOverStdio(core, credential, toolNames as ToolNameStyle | undefined);
  return 0;
}
