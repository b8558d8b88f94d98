import { Server, type JSONRPCRequest, type Result, type ServerContext, type ServerOptions } from "@modelcontextprotocol/server";
import { z } from "zod";
import { declaresTasks, detailedTaskResult, EMPTY_ACK, missingTasksCapability, TASKS_EXTENSION, unknownTask, type DetailedTask } from "./wire.js";

// Where a server's tasks live, read and acted on for the caller of one request (the backend finds the caller in
// the request's context). `undefined` and `false` mean no such task for this caller.
export interface TaskBackend {
  get(taskId: string, ctx: ServerContext): Promise<DetailedTask | undefined>;
  // Cancellation is cooperative: the ack says the intent was received, tasks/get shows what came of it.
  cancel(taskId: string, ctx: ServerContext): Promise<boolean>;
  // Answers to the task's inputRequests; keys not outstanding are ignored.
  update(taskId: string, inputResponses: Record<string, unknown>, ctx: ServerContext): Promise<boolean>;
}

const taskIdParams = z.looseObject({ taskId: z.string().min(1).max(256) });
const updateParams = z.looseObject({ taskId: z.string().min(1).max(256), inputResponses: z.record(z.string(), z.unknown()).optional() });

// A tools/call handler's CreateTaskResult, carried past the SDK's CallToolResult validation (which would add an
// empty content array to it): the wrapper below answers it as it is.
class TaskCreated extends Error {
  constructor(readonly result: Result) {
    super("task created");
  }
}

function isCreateTaskResult(result: Result): boolean {
  return (result as { resultType?: unknown }).resultType === "task";
}

// A Server that serves the Tasks extension beside its own handlers: it declares the extension, answers tasks/get,
// tasks/update and tasks/cancel from the backend, and lets a tools/call handler return a CreateTaskResult (from
// createTaskResult) when declaresTasks(ctx). When the SDK ships a TasksExtension, this class is what it replaces.
export class TasksServer extends Server {
  constructor(info: ConstructorParameters<typeof Server>[0], options: ServerOptions, backend: TaskBackend) {
    const capabilities = options.capabilities ?? {};
    super(info, { ...options, capabilities: { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } } });
    this.setRequestHandler("tasks/get", { params: taskIdParams }, async (params, ctx) => {
      if (!declaresTasks(ctx)) throw missingTasksCapability("tasks/get");
      const task = await backend.get(params.taskId, ctx);
      if (!task) throw unknownTask(params.taskId);
      return detailedTaskResult(task);
    });
    this.setRequestHandler("tasks/cancel", { params: taskIdParams }, async (params, ctx) => {
      if (!declaresTasks(ctx)) throw missingTasksCapability("tasks/cancel");
      if (!(await backend.cancel(params.taskId, ctx))) throw unknownTask(params.taskId);
      return { ...EMPTY_ACK };
    });
    this.setRequestHandler("tasks/update", { params: updateParams }, async (params, ctx) => {
      if (!declaresTasks(ctx)) throw missingTasksCapability("tasks/update");
      // The SDK lifts inputResponses out of a request's params into the context, as for a tools/call retry.
      const responses = params.inputResponses ?? ctx.mcpReq.inputResponses ?? {};
      if (!(await backend.update(params.taskId, responses, ctx))) throw unknownTask(params.taskId);
      return { ...EMPTY_ACK };
    });
  }

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    if (method !== "tools/call") return super._wrapHandler(method, handler);
    const wrapped = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if (isCreateTaskResult(result)) {
        if (!declaresTasks(ctx)) throw new Error("A tools/call handler answered a task to a request that did not declare the Tasks extension");
        throw new TaskCreated(result);
      }
      return result;
    });
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        if (error instanceof TaskCreated) return error.result;
        throw error;
      }
    };
  }
}
