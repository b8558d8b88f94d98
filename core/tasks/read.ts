import { z } from "zod";
import type { ArtifactUrlSigner } from "../artifacts/signed-url.js";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { Db, ReadSql } from "../db/client.js";
import { ServiceError } from "../errors/index.js";
import { decodeCursor, pageOf, pageQuerySchema, parseListQuery, type ListParameters } from "../contracts/pagination.js";
import { toEnvelope, type EnvelopeContext, type TaskEnvelope } from "./envelope.js";
import { listTasks, type TaskListPosition } from "./repository.js";
import { OPEN_STATUSES, TERMINAL_STATUSES } from "../db/task-state-machine.js";
import { readTaskForTenant } from "./task-reads.js";

// The parts of the runtime a task's envelope is written with: the base of its links, the signer of its artifacts'
// URLs and the time they are signed at.
export interface EnvelopeRuntime {
  clock: Clock;
  signer: ArtifactUrlSigner;
  config: Pick<Config, "publicBaseUrl">;
}

export function envelopeContext(core: EnvelopeRuntime): EnvelopeContext {
  return { baseUrl: core.config.publicBaseUrl, signer: core.signer, now: core.clock() };
}

// Unknown and foreign ids answer the same 404, so ids leak nothing about other tenants.
export async function getTask(core: EnvelopeRuntime & { reads: ReadSql }, tenantId: string, taskId: string): Promise<TaskEnvelope> {
  const row = await readTaskForTenant(core.reads, tenantId, taskId);
  if (!row) throw new ServiceError("task_not_found", `No task ${taskId}.`, { details: { task_id: taskId } });
  return toEnvelope(row, envelopeContext(core));
}

// GET /v1/tasks and svc.tasks.list: the page query and the list's own filters.
export const taskListQuerySchema = pageQuerySchema
  .extend({
    status: z.enum([...OPEN_STATUSES, ...TERMINAL_STATUSES]).optional().describe("Only tasks in this status."),
    capability: z.string().min(1).max(64).optional().describe("Only tasks of this capability, e.g. text_to_speech."),
  })
  .strict();

const TASK_ID = /^task_[0-9a-z]{26}$/;

// A cursor is the last task of a page, as {v: 2, t: created_at, id}. Version 1 cursors ({before: id}) came from the
// list ordered by id; they still work, resolved to that task's place in the new order.
function taskPosition(value: Record<string, unknown>): TaskListPosition | undefined {
  if (value.v === 1 && typeof value.before === "string" && TASK_ID.test(value.before)) return { afterTaskId: value.before };
  if (value.v === 2 && typeof value.id === "string" && TASK_ID.test(value.id) && typeof value.t === "string") {
    const createdAt = new Date(value.t);
    if (!Number.isNaN(createdAt.getTime())) return { createdAt, id: value.id };
  }
  return undefined;
}

export async function listTasksPage(core: EnvelopeRuntime & { db: Db }, tenantId: string, query: Record<string, unknown>, from: ListParameters = "query") {
  const { limit, cursor, status, capability } = parseListQuery(taskListQuerySchema, query);
  const after = cursor !== undefined ? decodeCursor(cursor, taskPosition, from) : undefined;
  const rows = await listTasks(core.db, { tenantId, after, status, capability, limit: limit + 1 });
  const ctx = envelopeContext(core);
  return pageOf(rows, limit, (last) => ({ v: 2, t: last.createdAt.toISOString(), id: last.id }), (row) => toEnvelope(row, ctx));
}
