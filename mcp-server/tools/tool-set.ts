import type { Tool } from "@modelcontextprotocol/server";
import type { Config } from "../../core/index.js";
import { assetTools } from "./asset-tools.js";
import { catalogTools } from "./catalog-tools.js";
import { taskCreationTools } from "./task-creation-tools.js";
import { taskQueryTools } from "./task-query-tools.js";
import type { ToolDefinition } from "./types.js";

export type ToolNameStyle = Config["mcp"]["toolNames"];

// Hosts that refuse dots in tool names get svc_<area>_<verb>; the text that names tools follows the same style.
export function styledNames(text: string, style: ToolNameStyle): string {
  return style === "underscore" ? text.replace(/\bsvc\.([a-z_]+)\.([a-z_]+)/g, "svc_$1_$2") : text;
}

function namesOf(name: string, style: ToolNameStyle): string[] {
  const underscored = name.replaceAll(".", "_");
  if (style === "dotted") return [name];
  if (style === "underscore") return [underscored];
  return [name, underscored];
}

export interface ToolSet {
  // What tools/list answers, in the configured naming style.
  listed: Tool[];
  // Either spelling finds a tool, whatever is listed: a host that rewrote a name still reaches it.
  find(name: string): ToolDefinition | undefined;
}

// Every tool, built once per process: the capability table's task-creating tools, then tasks, catalog and assets.
export function buildToolSet(config: Config): ToolSet {
  const style = config.mcp.toolNames;
  const definitions = [...taskCreationTools(), ...taskQueryTools(), ...catalogTools(), ...assetTools(config.assetUploadMaxBytes)];
  const byName = new Map<string, ToolDefinition>();
  for (const definition of definitions) {
    byName.set(definition.name, definition);
    byName.set(definition.name.replaceAll(".", "_"), definition);
  }
  const listed = definitions.flatMap((definition) =>
    namesOf(definition.name, style).map(
      (name): Tool => ({
        name,
        title: definition.title,
        description: styledNames(definition.description, style),
        inputSchema: definition.inputSchema as Tool["inputSchema"],
        outputSchema: definition.outputSchema as Tool["outputSchema"],
        annotations: definition.annotations,
      }),
    ),
  );
  return { listed, find: (name) => byName.get(name) };
}
