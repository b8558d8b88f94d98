import { z } from "zod";
import { ServiceError, zodFailures, invalidRequest } from "../errors/index.js";
import type { Core } from "../runtime.js";
import { toEnvelope, type TaskEnvelope } from "./envelope.js";
import { listTasks, TERMINAL_STATUSES, OPEN_STATUSES } from "./repository.js";
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

function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, before: lastId })).toString("base64url");
}

function decodeCursor(cursor: string): string {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { v?: number; before?: unknown };
    if (value.v === 1 && typeof value.before === "string" && /^task_[0-9a-z]{26}$/.test(value.before)) return value.before;
  } catch {
    // falls through to the refusal below
  }
  throw new ServiceError("invalid_cursor", "The pagination cursor is malformed; pass next_cursor from a previous page unchanged.", {
    param: "cursor",
  });
}

export async function listTasksPage(core: Core, tenantId: string, query: Record<string, unknown>) {
  const parsed = listQuerySchema.safeParse(query);
  if (!parsed.success) throw invalidRequest(zodFailures(parsed.error, ["query"]));
  const { limit, cursor, status, capability } = parsed.data;
  const beforeId = cursor !== undefined ? decodeCursor(cursor) : undefined;
  const rows = await listTasks(core.db, { tenantId, beforeId, status, capability, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const ctx = envelopeContext(core);
  return {
    object: "list" as const,
    data: page.map((row) => toEnvelope(row, ctx)),
    has_more: hasMore,
    next_cursor: hasMore && page.length > 0 ? encodeCursor(page[page.length - 1]!.id) : null,
  };
}
