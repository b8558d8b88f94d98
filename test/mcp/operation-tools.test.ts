import { describe, expect, it } from "vitest";
import { CAPABILITIES, OPERATIONS, scopeFor } from "../../core/index.js";
import { buildToolSet } from "../../mcp-server/tools/tool-set.js";

// The tools an agent sees are the capability table's task-creating tools and the tools the operations table names
// for the operations they mirror, each once; a tool mirroring an operation asks for the scope its REST route's
// area and method stand for (a read for GET, a write otherwise).

const tools = buildToolSet({ assetUploadMaxBytes: 1024 });
const mirrored = OPERATIONS.flatMap((operation) => (operation.tool ? [{ ...operation, tool: operation.tool.name }] : []));

describe("MCP tools and the operations table", () => {
  it("lists exactly the capabilities' tools and the operations' tools", () => {
    const listed = tools.listed("dotted").map((tool) => tool.name);
    const tabled = [...CAPABILITIES.map((capability) => capability.tool.name), ...mirrored.map((operation) => operation.tool)];
    expect(listed).toHaveLength(tabled.length);
    expect([...listed].sort()).toEqual([...tabled].sort());
  });

  it.each(OPERATIONS.flatMap((operation) => (operation.tool && "title" in operation.tool ? [[operation.tool.name, operation.tool] as const] : [])))(
    "%s, generated from its row, says what the row says of it",
    (name, text) => {
      const tool = tools.find(name)!;
      expect(tool.title).toBe(text.title);
      expect(tool.description).toBe(typeof text.description === "string" ? text.description : text.description({ assetUploadMaxBytes: 1024 }));
    },
  );

  it.each(mirrored.map((operation) => [operation.tool, operation] as const))("%s asks for the scope of its operation", (name, operation) => {
    const scopes = tools.find(name)!.scopes;
    if (operation.area === "capability") {
      // The priced capability's own write scope is checked once the call names it; any of them lets the call in.
      for (const capability of CAPABILITIES) expect(scopes).toContain(scopeFor(capability.area, "write"));
    } else {
      expect(operation.area).not.toBeNull();
      expect(scopes[0]).toBe(scopeFor(operation.area!, operation.method === "GET" ? "read" : "write"));
    }
  });
});
