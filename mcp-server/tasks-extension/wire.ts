import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, ProtocolErrorCode, type CallToolResult, type InputRequest, type ServerContext } from "@modelcontextprotocol/server";

// The MCP Tasks extension (io.modelcontextprotocol/tasks), schema 2026-07-28: a tools/call may be answered with a
// task handle, which the client follows with tasks/get, tasks/update and tasks/cancel. No released SDK serves it
// (the server package carries only the 2025-11-25 task types), so its wire shapes are written here, once.
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

// SEP-2575's Missing Required Client Capability.
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

export type WireTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

// What a backend knows of one task: the extension's Task plus the payload of its status (the final CallToolResult
// when completed, the JSON-RPC error when failed, the open requests, elicitations or samplings answered through tasks/update, when input_required).
export interface DetailedTask {
  taskId: string;
  status: WireTaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  // From creation, in integer milliseconds; null for unlimited.
  ttlMs: number | null;
  pollIntervalMs?: number;
  result?: CallToolResult;
  error?: { code: number; message: string; data?: unknown };
  inputRequests?: Record<string, InputRequest>;
}

// The Task fields every shape carries; the status payload is added only for its own status, as the extension's
// DetailedTask union has it.
function taskFields(task: DetailedTask): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    ...(task.pollIntervalMs !== undefined ? { pollIntervalMs: task.pollIntervalMs } : {}),
  };
}

// The answer of a tools/call that made a task: flat Result & Task, resultType "task", no payload (tasks/get has it).
// Typed as what a tools/call handler returns, the only answer the SDK's types know; TasksServer sends it as it is.
export function createTaskResult(task: DetailedTask): CallToolResult {
  return { resultType: "task", ...taskFields(task) } as unknown as CallToolResult;
}

// The answer of tasks/get (and the params of notifications/tasks): the task with its status's payload. The inlined
// result is what the tools/call would have answered on 2026-07-28, resultType included.
export function detailedTaskResult(task: DetailedTask): Record<string, unknown> {
  const payload =
    task.status === "completed"
      ? { result: { resultType: "complete", ...(task.result ?? { content: [] }) } }
      : task.status === "failed"
        ? { error: task.error ?? { code: ProtocolErrorCode.InternalError, message: task.statusMessage ?? "The task failed." } }
        : task.status === "input_required"
          ? { inputRequests: task.inputRequests ?? {} }
          : {};
  return { resultType: "complete", ...taskFields(task), ...payload };
}

// tasks/update and tasks/cancel acknowledge with an empty result.
export const EMPTY_ACK = { resultType: "complete" } as const;

// Task creation is server-directed and per request: only a request whose own capabilities (the 2026-07-28 _meta
// envelope) declare the extension may be answered with a task. A 2025-11-25 request has no such envelope.
export function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  const declared = capabilities?.extensions?.[TASKS_EXTENSION];
  return declared !== null && typeof declared === "object";
}

export function missingTasksCapability(what: string): ProtocolError {
  return new ProtocolError(MISSING_REQUIRED_CLIENT_CAPABILITY, `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension declared on the request.`, {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}

// Unknown, expired and another caller's tasks answer alike, so an id reveals nothing about tasks not the caller's.
export function unknownTask(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: no task ${taskId}.`);
}
