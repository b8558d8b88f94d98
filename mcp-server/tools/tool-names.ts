import type { Config } from "../../core/index.js";

// How a connection names the tools: svc.<area>.<verb> (the specification's canonical names), svc_<area>_<verb>
// for hosts and model APIs that require ^[a-zA-Z0-9_-]{1,64}$ (Claude, OpenAI, Copilot, Gemini), or both.
// MCP_TOOL_NAMES sets the default of /mcp; /mcp/dotted and /mcp/underscore (and `svc mcp --tool-names`) choose
// per connection, so one deployment serves every kind of host.
export type ToolNameStyle = Config["mcp"]["toolNames"];
export const CONNECTION_STYLES = ["dotted", "underscore"] as const satisfies readonly ToolNameStyle[];

export function isToolNameStyle(value: string): value is ToolNameStyle {
  return value === "dotted" || value === "underscore" || value === "both";
}

export function underscored(name: string): string {
  return name.replaceAll(".", "_");
}

// The names a tool is listed under in a style.
export function namesOf(name: string, style: ToolNameStyle): string[] {
  if (style === "dotted") return [name];
  if (style === "underscore") return [underscored(name)];
  return [name, underscored(name)];
}

const TOOL_NAME = /\bsvc\.([a-z_]+)\.([a-z_]+)/g;

// Text that names tools (descriptions, instructions, error messages) follows the connection's style. Where the
// dotted names are listed, the text gives the underscore spelling beside each too: hosts whose model APIs refuse
// dots (Claude Code, Codex, Gemini CLI) show the tools as svc_<area>_<verb> whatever the server lists, and a text
// naming only svc.tasks.get would name a tool their model does not see.
export function styledNames(text: string, style: ToolNameStyle): string {
  if (style === "underscore") return text.replace(TOOL_NAME, "svc_$1_$2");
  return text.replace(TOOL_NAME, "$& (svc_$1_$2)");
}
