import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ProtocolError, ProtocolErrorCode, type ReadResourceResult, type Resource } from "@modelcontextprotocol/server";
import type { Config } from "../core/index.js";

// The task view (MCP Apps, SEP-1865): one self-contained HTML page (mcp-app/, bundled by `npm run build` into
// dist/mcp-app/task.html) that hosts rendering MCP Apps show beside a create tool's or svc.tasks.get's result.
// It follows the task through the host, plays or shows what it made, and tells the model how it ended. Hosts
// without the extension ignore the link and keep the text results.

export const TASK_APP_URI = "ui://svc/task";
export const TASK_APP_MIME_TYPE = "text/html;profile=mcp-app";

// What a tool carries in tools/list to be shown with the view: only the stable form of the link. The legacy
// `ui/resourceUri` key as well would cost 33 bytes on each of 17 tools, for hosts that predate the 2026-01-26
// specification.
export const TASK_APP_TOOL_META = { ui: { resourceUri: TASK_APP_URI } };

// The host's sandbox allows only what the view declares. Its media come from the artifacts' signed URLs, which
// are always on PUBLIC_BASE_URL (with ARTIFACT_STORE=s3 the REST server streams the bucket's objects under the
// same URL), so that origin is the one resource domain. The view makes no requests of its own (connectDomains is
// empty): it reads tasks through the host's tool calls.
function resourceMeta(config: Pick<Config, "publicBaseUrl">) {
  return { ui: { csp: { resourceDomains: [new URL(config.publicBaseUrl).origin] }, prefersBorder: true } };
}

export function taskAppResource(config: Pick<Config, "publicBaseUrl">): Resource {
  return {
    uri: TASK_APP_URI,
    name: "task-view",
    title: "Task view",
    description: "Follows a task to its end and shows or plays what it made (MCP Apps).",
    mimeType: TASK_APP_MIME_TYPE,
    _meta: resourceMeta(config),
  };
}

// dist/mcp-app/task.html beside the package.json above this file, whether it runs from its source (tests, tsx) or
// from dist/; read once.
let html: string | null = null;
function builtHtml(): string | null {
  if (html !== null) return html;
  for (let dir = import.meta.dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) {
      const file = path.join(dir, "dist", "mcp-app", "task.html");
      if (existsSync(file)) html = readFileSync(file, "utf8");
      return html;
    }
  }
  return null;
}

export function readTaskApp(config: Pick<Config, "publicBaseUrl">): ReadResourceResult {
  const text = builtHtml();
  // Only a checkout run from its sources without `npm run build` lacks the page; every start builds it.
  if (text === null) throw new ProtocolError(ProtocolErrorCode.InternalError, "The task view is not built here: run `npm run build`.");
  return { contents: [{ uri: TASK_APP_URI, mimeType: TASK_APP_MIME_TYPE, text, _meta: resourceMeta(config) }] };
}
