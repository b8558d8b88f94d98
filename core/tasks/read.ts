import { z } from "zod";
import { invalidCursor, invalidQuery } from "../contracts/query-errors.js";
import { ServiceError } from "../errors/index.js";
import type { Core } from "../runtime.js";
import { toEnvelope, type TaskEnvelope } from "./envelope.js";
import { listTasks, TERMINAL_STATUSES, OPEN_STATUSES, type TaskListPosition, type TaskRow } from "./repository.js";
import { readTaskForTenant } from "./task-reads.js";

export function envelopeContext(core: Core) {
  return { baseUrl: core.config.publicBaseUrl, signer: core.signer, now: core.clock() };
}

// Unknown and foreign ids answer the same 404, so ids leak nothing about other tenants.
export async function getTask(core: Core, tenantId: string, taskId: string): Promise<TaskEnvelope> {
  const row = await readTaskForTenant(core.reads, tenantId, taskId);
  if (!row) throw new ServiceError("task_not_found", `No task ${taskId}.`, { details: { task_id: taskId } });
  return toEnvelope(row, envelopeContext(core));
}

const listQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().optional(),
    status: z.enum([...OPEN_STATUSES, ...TERMINAL_STATUSES]).optional(),
    capability: z.string().min(1).max(64).optional(),
  })
  .strict();

// A cursor is the last task of a page, as {v: 2, t: created_at, id}, base64url. Version 1 cursors ({before: id})
// came from the list ordered by id; they still work, resolved to that task's place in the new order.
function encodeCursor(last: TaskRow): string {
  return Buffer.from(JSON.stringify({ v: 2, t: last.createdAt.toISOString(), id: last.id })).toString("base64url");
}

const TASK_ID = /^task_[0-9a-z]{26}$/;

function decodeCursor(cursor: string): TaskListPosition {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { v?: number; before?: unknown; t?: unknown; id?: unknown };
    if (value.v === 1 && typeof value.before === "string" && TASK_ID.test(value.before)) return { afterTaskId: value.before };
    if (value.v === 2 && typeof value.id === "string" && TASK_ID.test(value.id) && typeof value.t === "string") {
      const createdAt = new Date(value.t);
      if (!Number.isNaN(createdAt.getTime())) return { createdAt, id: value.id };
    }
  } catch {
    // falls through to the refusal below
  }
  throw invalidCursor();
}

export async function listTasksPage(core: Core, tenantId: string, query: Record<string, unknown>) {
  const parsed = listQuerySchema.safeParse(query);
  if (!parsed.success) throw invalidQuery(parsed.error);
  const { limit, cursor, status, capability } = parsed.data;
  const after = cursor !== undefined ? decodeCursor(cursor) : undefined;
  const rows = await listTasks(core.db, { tenantId, after, status, capability, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const ctx = envelopeContext(core);
  return {
    object: "list" as const,
    data: page.map((row) => toEnvelope(row, ctx)),
    has_more: hasMore,
    next_cursor: hasMore && page.length > 0 ? encodeCursor(page[page.length - 1]!) : null,
  };
}
