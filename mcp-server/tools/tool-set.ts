import type { Tool } from "@modelcontextprotocol/server";
import type { Config } from "../../core/index.js";
import { accountTools } from "./account-tools.js";
import { assetTools } from "./asset-tools.js";
import { catalogTools } from "./catalog-tools.js";
import { taskCreationTools } from "./task-creation-tools.js";
import { taskQueryTools } from "./task-query-tools.js";
import { namesOf, styledNames, underscored, type ToolNameStyle } from "./tool-names.js";
import type { ToolDefinition } from "./types.js";

export interface ToolSet {
  // What tools/list answers in a naming style.
  listed(style: ToolNameStyle): Tool[];
  // Either spelling finds a tool, whatever is listed: a host that rewrote a name still reaches it.
  find(name: string): ToolDefinition | undefined;
}

function listedTool(definition: ToolDefinition, name: string, style: ToolNameStyle): Tool {
  return {
    name,
    title: definition.title,
    description: styledNames(definition.description, style),
    // Property descriptions name tools too (svc.assets.upload, svc.models.list).
    inputSchema: JSON.parse(styledNames(JSON.stringify(definition.inputSchema), style)) as Tool["inputSchema"],
    annotations: definition.annotations,
    ...(definition.meta ? { _meta: definition.meta } : {}),
  };
}

// Every tool, built once per process: the capability table's task-creating tools, then tasks, catalog, account
// and assets; each naming style's list is built once too.
export function buildToolSet(config: Pick<Config, "assetUploadMaxBytes">): ToolSet {
  const definitions = [...taskCreationTools(), ...taskQueryTools(config), ...catalogTools(config), ...accountTools(), ...assetTools(config)];
  const byName = new Map<string, ToolDefinition>();
  for (const definition of definitions) {
    byName.set(definition.name, definition);
    byName.set(underscored(definition.name), definition);
  }
  const lists = new Map<ToolNameStyle, Tool[]>();
  return {
    listed(style) {
      let list = lists.get(style);
      if (!list) {
        list = definitions.flatMap((definition) => namesOf(definition.name, style).map((name) => listedTool(definition, name, style)));
        lists.set(style, list);
      }
      return list;
    },
    find: (name) => byName.get(name),
  };
}
