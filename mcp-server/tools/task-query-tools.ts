import { z } from "zod";
import { cancelTask, listTasksPage, MIRRORED_OPERATIONS, scopeFor, type ToolLimits } from "../../core/index.js";
import { TASK_APP_TOOL_META } from "../task-app.js";
import { jsonSchemaOf, parseArguments } from "./json-schema.js";
import { mirroredTool } from "./mirrored-tool.js";
import { taskOutcome } from "./task-outcome.js";
import { TASK_VIEWS, taskInView } from "./task-view.js";
import { MAX_WAIT_SECONDS, readTaskWaiting } from "./task-wait.js";
import { READ_ONLY, type ToolDefinition } from "./types.js";

const { getTask: getOperation, listTasks: listOperation, cancelTask: cancelOperation } = MIRRORED_OPERATIONS;

const view = z.enum(TASK_VIEWS).default("summary").describe("summary (default), or full: the whole envelope.");

// svc.tasks.get and svc.tasks.list take arguments REST's operations do not (a view, a wait in seconds instead of
// Prefer, thumbnails), so they are written here, beside their REST operation's parameters and query fields with
// their rules and texts; svc.tasks.cancel takes exactly its operation's, and is generated from its row.
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
    // false is for a reader that shows the images itself (the task view): it spares making them.
    thumbnails: z
      .boolean()
      .optional()
      .describe("Send a finished image task's images as thumbnails: true always, false never (by default, the wait that sees it end)."),
  })
  .strict();

// The list's own query; the idempotency-key lookup is REST's (a tool call that repeats a create with its
// client_request_id is answered with the task it created).
const listInput = listOperation.query.omit({ idempotency_key: true }).extend({ view });

export function taskQueryTools(limits: ToolLimits): ToolDefinition[] {
  return [
    {
      name: getOperation.tool.name,
      title: "Get a task",
      description:
        "Read a task a create tool answered: status, progress, output with artifact links, error, billing. Poll " +
        "until succeeded, failed or canceled: queued and running are not failures, never resubmit. wait_seconds " +
        `(up to ${MAX_WAIT_SECONDS}) waits for the end.`,
      inputSchema: jsonSchemaOf(getInput, "input"),
      annotations: READ_ONLY,
      meta: TASK_APP_TOOL_META,
      scopes: [scopeFor("tasks", "read")],
      async run(args, call) {
        const input = parseArguments(getInput, args);
        const { task, endedWhileWaiting } = await readTaskWaiting(call, input.task_id, input.wait_seconds);
        // Thumbnails once: with the answer that saw the task end, unless asked otherwise; other reads only link the images.
        return taskOutcome(call, task, { view: input.view, thumbnails: input.thumbnails ?? endedWhileWaiting });
      },
    },
    {
      name: listOperation.tool.name,
      title: "List tasks",
      description: "Your tasks, newest first, optionally filtered by status or capability; page with next_cursor.",
      inputSchema: jsonSchemaOf(listInput, "input"),
      annotations: READ_ONLY,
      scopes: [scopeFor("tasks", "read")],
      async run(args, call) {
        const { view: chosen, ...filters } = parseArguments(listInput, args);
        const page = await listTasksPage(call.core, call.grant.tenantId, filters, "arguments");
        return { structured: { ...page, data: page.data.map((task) => taskInView(task, chosen)) } };
      },
    },
    mirroredTool(cancelOperation, limits, {
      annotations: { idempotentHint: true },
      async run(input, call) {
        const result = await cancelTask(call.core, call.grant.tenantId, input.task_id, input.reason);
        return taskOutcome(call, result.task);
      },
    }),
  ];
}
