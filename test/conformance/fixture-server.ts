import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { acceptedContent, createMcpHandler, inputRequired, ProtocolError, ProtocolErrorCode, type CallToolResult, type InputRequest, type Tool } from "@modelcontextprotocol/server";
import { TasksServer, type TaskBackend } from "../../mcp-server/tasks-extension/extension.js";
import { createTaskResult, declaresTasks, missingTasksCapability, type DetailedTask } from "../../mcp-server/tasks-extension/wire.js";

// The fixture server the conformance suite's tasks scenarios call (greet, slow_compute, failing_job,
// protocol_error_job, confirm_delete, multi_input, test_tool_with_task), built on the same Tasks extension module
// as the service, with the tasks held in memory. It exists to test the module's wire against the suite, including
// the parts the service never uses (tasks that wait on input).

const TTL_MS = 10 * 60 * 1000;
const POLL_INTERVAL_MS = 200;
// A task's own work runs on timers; these bound how long each fixture takes.
const FAILING_JOB_MS = 1000;
const SLOW_COMPUTE_MAX_SECONDS = 120;

interface FixtureTask extends DetailedTask {
  // The answers an input_required task waits for, by inputRequests key; the task resumes when all are in.
  pending: Map<string, InputRequest>;
  onInput?: (answers: Record<string, unknown>) => void;
  answers: Record<string, unknown>;
  timer?: NodeJS.Timeout;
}

function text(value: string, isError = false): CallToolResult {
  return { content: [{ type: "text", text: value }], ...(isError ? { isError: true } : {}) };
}

function elicit(message: string, field: string): InputRequest {
  return inputRequired.elicit({ message, requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] } });
}

class FixtureTasks implements TaskBackend {
  readonly tasks = new Map<string, FixtureTask>();

  create(): FixtureTask {
    const now = new Date().toISOString();
    const task: FixtureTask = {
      taskId: randomUUID(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: TTL_MS,
      pollIntervalMs: POLL_INTERVAL_MS,
      pending: new Map(),
      answers: {},
    };
    this.tasks.set(task.taskId, task);
    return task;
  }

  private settle(task: FixtureTask, change: Partial<DetailedTask>): void {
    if (task.status === "completed" || task.status === "failed" || task.status === "cancelled") return;
    clearTimeout(task.timer);
    Object.assign(task, change, { lastUpdatedAt: new Date().toISOString() });
  }

  complete(task: FixtureTask, result: CallToolResult): void {
    this.settle(task, { status: "completed", result });
  }

  fail(task: FixtureTask, error: DetailedTask["error"]): void {
    this.settle(task, { status: "failed", error, statusMessage: error?.message });
  }

  askFor(task: FixtureTask, requests: Record<string, InputRequest>, onInput: (answers: Record<string, unknown>) => void): void {
    for (const [key, request] of Object.entries(requests)) task.pending.set(key, request);
    task.onInput = onInput;
    Object.assign(task, { status: "input_required", lastUpdatedAt: new Date().toISOString() });
  }

  async get(taskId: string): Promise<DetailedTask | undefined> {
    const task = this.tasks.get(taskId);
    if (!task) return undefined;
    return { ...task, ...(task.status === "input_required" ? { inputRequests: Object.fromEntries(task.pending) } : {}) };
  }

  async cancel(taskId: string): Promise<boolean> {
    const task = this.tasks.get(taskId);
    if (!task) return false;
    this.settle(task, { status: "cancelled", statusMessage: "Cancelled at the client's request." });
    return true;
  }

  async update(taskId: string, inputResponses: Record<string, unknown>): Promise<boolean> {
    const task = this.tasks.get(taskId);
    if (!task) return false;
    for (const [key, response] of Object.entries(inputResponses)) {
      if (!task.pending.delete(key)) continue;
      task.answers[key] = response;
    }
    if (task.status === "input_required" && task.pending.size === 0) {
      Object.assign(task, { status: "working", lastUpdatedAt: new Date().toISOString() });
      task.onInput?.(task.answers);
    }
    return true;
  }
}

const objectSchema = (properties: Record<string, { type: string }> = {}, required: string[] = []): Tool["inputSchema"] => ({ type: "object", properties, required });

const TOOLS: Tool[] = [
  { name: "greet", description: "Greets by name, at once.", inputSchema: objectSchema({ name: { type: "string" } }, ["name"]) },
  {
    name: "slow_compute",
    description: "Sleeps for `seconds`, then answers; as a task.",
    inputSchema: objectSchema({ seconds: { type: "number" }, label: { type: "string" } }),
    execution: { taskSupport: "optional" },
  },
  { name: "failing_job", description: "Ends with a tool error after a second.", inputSchema: objectSchema(), execution: { taskSupport: "required" } },
  { name: "protocol_error_job", description: "Ends with a JSON-RPC error.", inputSchema: objectSchema(), execution: { taskSupport: "optional" } },
  {
    name: "confirm_delete",
    description: "Asks to confirm, then answers.",
    inputSchema: objectSchema({ filename: { type: "string" } }),
    execution: { taskSupport: "optional" },
  },
  { name: "multi_input", description: "Asks two questions at once.", inputSchema: objectSchema(), execution: { taskSupport: "optional" } },
  { name: "test_tool_with_task", description: "Asks a name, then works on it as a task.", inputSchema: objectSchema(), execution: { taskSupport: "required" } },
];

function buildServer(store: FixtureTasks): TasksServer {
  const server = new TasksServer({ name: "tasks-fixture", version: "1.0.0" }, { capabilities: { tools: {} } }, store);
  server.setRequestHandler("tools/list", async () => ({ tools: TOOLS }));
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const name = request.params.name;
    if (name === "greet") return text(`Hello, ${String(args.name ?? "")}!`);
    if (!TOOLS.some((tool) => tool.name === name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const required = TOOLS.find((tool) => tool.name === name)?.execution?.taskSupport === "required";
    if (!declaresTasks(ctx)) {
      if (required) throw missingTasksCapability(name);
      return text(`${name} ran without a task.`);
    }
    if (name === "test_tool_with_task") {
      const answer = acceptedContent<{ name?: string }>(ctx.mcpReq.inputResponses, "user_name");
      if (!answer?.name) return inputRequired({ inputRequests: { user_name: elicit("Your name?", "name") } });
      const task = store.create();
      task.timer = setTimeout(() => store.complete(task, text(`Hello, ${answer.name}! Your task is done.`)), 100);
      return createTaskResult(task);
    }
    const task = store.create();
    if (name === "slow_compute") {
      const seconds = Math.min(Math.max(Number(args.seconds ?? 1) || 0, 0), SLOW_COMPUTE_MAX_SECONDS);
      task.timer = setTimeout(() => store.complete(task, text(`Computed ${String(args.label ?? "")} after ${seconds} s.`)), seconds * 1000);
    } else if (name === "failing_job") {
      task.timer = setTimeout(() => store.complete(task, text("The job failed.", true)), FAILING_JOB_MS);
    } else if (name === "protocol_error_job") {
      task.timer = setTimeout(() => store.fail(task, { code: ProtocolErrorCode.InternalError, message: "The job broke at the protocol level." }), 100);
    } else if (name === "confirm_delete") {
      store.askFor(task, { confirm: elicit(`Delete ${String(args.filename ?? "the file")}?`, "confirm") }, () => store.complete(task, text("Deleted.")));
    } else if (name === "multi_input") {
      store.askFor(task, { first: elicit("First name?", "name"), second: elicit("Last name?", "name") }, () => store.complete(task, text("Both answered.")));
    }
    return createTaskResult(task);
  });
  return server;
}

export interface FixtureServer {
  url: string;
  close(): Promise<void>;
}

export async function startFixtureServer(port = 0): Promise<FixtureServer> {
  const store = new FixtureTasks();
  const handler = createMcpHandler(() => buildServer(store), { onerror: (error) => console.error("fixture:", error) });
  const serve = toNodeHandler(handler);
  const http: HttpServer = createServer((request, response) => {
    if (new URL(request.url ?? "/", "http://localhost").pathname !== "/mcp") return void response.writeHead(404).end();
    serve(request, response).catch((error: unknown) => {
      console.error("fixture:", error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  const address = http.address();
  if (address === null || typeof address === "string") throw new Error("fixture server has no port");
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    async close() {
      for (const task of store.tasks.values()) clearTimeout(task.timer);
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
