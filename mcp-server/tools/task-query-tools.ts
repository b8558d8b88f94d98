import { z } from "zod";
import { cancelTask, listTasksPage, MIRRORED_OPERATIONS, scopeFor } from "../../core/index.js";
import { jsonSchemaOf, parseArguments } from "./json-schema.js";
import { OUTPUT_SCHEMAS } from "./output-schemas.js";
import { taskOutcome } from "./task-outcome.js";
import { TASK_VIEWS, taskInView } from "./task-view.js";
import { readTaskWaiting } from "./task-wait.js";
import { READ_ONLY, type ToolDefinition } from "./types.js";

// Bounded below common client request timeouts (60 s in the SDKs), so a wait never turns into a client error.
export const MAX_WAIT_SECONDS = 30;

const { getTask: getOperation, listTasks: listOperation, cancelTask: cancelOperation } = MIRRORED_OPERATIONS;

const view = z
  .enum(TASK_VIEWS)
  .default("summary")
  .describe("summary (default): status, output, error, billing; full: the whole envelope.");

// Each tool's arguments are its REST operation's parameters, query and body fields, with their rules and texts,
// beside what only the tool takes (a view, a wait).
const getInput = getOperation.params
  .extend({
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

// The list's own query; the idempotency-key lookup is REST's (a tool call that repeats a create with its
// client_request_id is answered with the task it created).
const listInput = listOperation.query.omit({ idempotency_key: true }).extend({ view });

const cancelInput = cancelOperation.params.extend(cancelOperation.body.schema.shape).strict();

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
        const page = await listTasksPage(call.core, call.grant.tenantId, filters, "arguments");
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
