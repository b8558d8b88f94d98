import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { renderMcpToolsDoc } from "./tools/tool-report.js";

// npm run docs:mcp-tools: rewrites docs/mcp-tools.md from the tool definitions.
const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "docs/mcp-tools.md");
await writeFile(target, renderMcpToolsDoc());
console.log(`wrote ${target}`);
