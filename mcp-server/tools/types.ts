import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/server";
import type { Core, getTask, Grant, Scope } from "../../core/index.js";
import type { ToolNameStyle } from "./tool-names.js";

// One tool call as a tool sees it: who is calling, the request id errors carry, how the connection names tools,
// and a way to report progress.
export interface ToolCall {
  core: Core;
  grant: Grant;
  requestId: string;
  toolNames: ToolNameStyle;
  signal: AbortSignal;
  // Sends notifications/progress when the caller asked for them with a progress token; otherwise does nothing.
  progress(update: { progress: number; total?: number; message?: string }): Promise<void>;
}

export type ToolContent = CallToolResult["content"][number];

export interface ToolOutcome {
  structured: Record<string, unknown>;
  // Beside the JSON text: artifacts as resource links (never inline bytes), and thumbnails of generated images.
  content?: ToolContent[];
  meta?: Record<string, unknown>;
  // The task a create tool made (or replayed): answered as a task handle instead, to a client that declared the
  // MCP Tasks extension on the call (mcp-server/tasks-extension/).
  createdTask?: Awaited<ReturnType<typeof getTask>>;
}

// A tool under its canonical svc.<area>.<verb> name. Input schemas are JSON Schema generated from the same zod
// schemas core validates with; a task-creating tool advertises a compact form of its own (compact-schema.ts), and
// every call is held to the complete one.
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
  // The tool's _meta in tools/list: the task view it is shown with, on hosts that render MCP Apps (task-app.ts).
  meta?: Record<string, unknown>;
  // Any one of these scopes grants the tool; the first is the one a refusal asks for.
  scopes: readonly [Scope, ...Scope[]];
  run(args: Record<string, unknown>, call: ToolCall): Promise<ToolOutcome>;
}

// Hints are given only where they differ from MCP's defaults (readOnlyHint false, destructiveHint true,
// idempotentHint false, openWorldHint true); destructive and idempotent hints only mean something for tools that
// write. tools/list repeats them on every tool.
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
