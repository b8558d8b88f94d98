import { z } from "zod";
import { redeliverCallback } from "../../callbacks/redeliver.js";
import { listTaskAssets } from "../../tasks/task-assets.js";
import { taskAssetListSchema } from "../response-schemas.js";
import { defineOperation } from "../define.js";
import { task, taskId } from "./shared.js";
import { cancelTaskOperation, createQuoteOperation, getTaskOperation, listTasksOperation } from "./mirrored.js";

export const TASK_OPERATIONS = [
  listTasksOperation,
  getTaskOperation,
  defineOperation({
    operationId: "streamTaskEvents",
    method: "GET",
    path: "/v1/tasks/{task_id}/events",
    summary: "The task's status and progress as server-sent events, then the final envelope; the stream ends with the task",
    area: "tasks",
    params: taskId,
    headers: z.object({ "Last-Event-ID": z.string().optional().describe("The id of the last event received: resume after it.") }),
    responses: {
      200: {
        description: "The event stream (events status, progress and task; comment heartbeats)",
        body: { mediaType: "text/event-stream", text: "Server-sent events; each data line is JSON." },
      },
    },
    errors: ["task_not_found"],
  }),
  createQuoteOperation,
  cancelTaskOperation,
  defineOperation({
    operationId: "listTaskAssets",
    method: "GET",
    path: "/v1/tasks/{task_id}/assets",
    summary: "A task's artifacts with fresh signed URLs",
    area: "tasks",
    params: taskId,
    responses: { 200: { description: "The task's artifacts", body: { schema: taskAssetListSchema, component: "TaskAssetList" } } },
    errors: ["task_not_found"],
    run: (core, call) => listTaskAssets(core, call.tenantId, call.params.task_id),
  }),
  defineOperation({
    operationId: "redeliverTaskCallback",
    method: "POST",
    path: "/v1/tasks/{task_id}/callback/redeliver",
    summary: "One more delivery attempt of a terminal task's callback event (same event_id), once its scheduled attempts have settled",
    area: "tasks",
    params: taskId,
    responses: { 202: { description: "The delivery is scheduled", body: task } },
    errors: ["task_not_found", "conflict", "callback_signing_key_inactive"],
    run: (core, call) => redeliverCallback(core, call.tenantId, call.params.task_id),
  }),
] as const;
