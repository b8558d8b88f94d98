import { z } from "zod";
import { cancelTask, listTasksPage, scopeFor } from "../../core/index.js";
import { jsonSchemaOf, parseArguments } from "./json-schema.js";
import { OUTPUT_SCHEMAS } from "./output-schemas.js";
import { taskOutcome } from "./task-outcome.js";
import { TASK_VIEWS, taskInView } from "./task-view.js";
import { readTaskWaiting } from "./task-wait.js";
import { READ_ONLY, type ToolDefinition } from "./types.js";

// Bounded below common client request timeouts (60 s in the SDKs), so a wait never turns into a client error.
export const MAX_WAIT_SECONDS = 30;

const taskId = z.string().min(1).max(64).describe("The task_id a task-creating tool returned.");
const view = z
  .enum(TASK_VIEWS)
  .default("summary")
  .describe("summary (default): status, output, error, billing; full: the whole envelope.");

const getInput = z
  .object({
    task_id: taskId,
    wait_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .default(0)
      .describe(`Wait up to this many seconds (0 to ${MAX_WAIT_SECONDS}) for a terminal status before answering.`),
    view,
  })
  .strict();

const listInput = z
  .object({
    limit: z.number().int().min(1).max(100).optional().describe("Tasks per page, 1 to 100 (default 20)."),
    cursor: z.string().min(1).optional().describe("next_cursor of the previous page."),
    status: z.enum(["queued", "running", "succeeded", "failed", "canceled"]).optional().describe("Only tasks in this status."),
    capability: z.string().min(1).max(64).optional().describe("Only tasks of this capability, e.g. text_to_speech."),
    view,
  })
  .strict();

const cancelInput = z
  .object({ task_id: taskId, reason: z.string().max(1000).optional().describe("Why, for your records (at most 1000 characters).") })
  .strict();

export function taskQueryTools(): ToolDefinition[] {
  return [
    {
      name: "svc.tasks.get",
      title: "Get a task",
      description:
        "Read a task: status, progress, output with artifact links, error, billing. queued and running are not " +
        `failures: keep polling, never resubmit. wait_seconds (up to ${MAX_WAIT_SECONDS}) waits for the end.`,
      inputSchema: jsonSchemaOf(getInput, "input"),
      outputSchema: OUTPUT_SCHEMAS.task,
      annotations: READ_ONLY,
      scopes: [scopeFor("tasks", "read")],
      async run(args, call) {
        const input = parseArguments(getInput, args);
        return taskOutcome(call, await readTaskWaiting(call, input.task_id, input.wait_seconds), input.view);
      },
    },
    {
      name: "svc.tasks.list",
      title: "List tasks",
      description: "Your tasks, newest first, optionally filtered by status or capability; page with next_cursor.",
      inputSchema: jsonSchemaOf(listInput, "input"),
      outputSchema: OUTPUT_SCHEMAS.taskList,
      annotations: READ_ONLY,
      scopes: [scopeFor("tasks", "read")],
      async run(args, call) {
        const { view: chosen, ...filters } = parseArguments(listInput, args);
        const page = await listTasksPage(call.core, call.grant.tenantId, filters);
        return { structured: { ...page, data: page.data.map((task) => taskInView(task, chosen)) } };
      },
    },
    {
      name: "svc.tasks.cancel",
      title: "Cancel a task",
      description:
        "Stop a task: queued ones at once, refunded; running ones get cancel_requested_at (poll svc.tasks.get), or " +
        "conflict when the model cannot stop: keep polling, do not resubmit. A finished task answers as it is.",
      inputSchema: jsonSchemaOf(cancelInput, "input"),
      outputSchema: OUTPUT_SCHEMAS.task,
      annotations: { idempotentHint: true },
      scopes: [scopeFor("tasks", "write")],
      async run(args, call) {
        const input = parseArguments(cancelInput, args);
        const result = await cancelTask(call.core, call.grant.tenantId, input.task_id, input.reason);
        return taskOutcome(call, result.task, "summary");
      },
    },
  ];
}
