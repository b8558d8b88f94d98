import { z } from "zod";
import type { ReadSql } from "../db/client.js";
import { parseListQuery, wholePage } from "../contracts/pagination.js";
import { toEnvelope, type TaskEnvelope } from "./envelope.js";
import { envelopeContext, type EnvelopeRuntime } from "./read.js";
import { taskRowOf } from "../db/task-rows.js";
import { IDEMPOTENCY_KEY_MAX_CHARS } from "../idempotency/key-bounds.js";

// GET /v1/tasks?idempotency_key=…: the query names the key alone (a list filter beside it would be ignored, so
// it is refused instead).
export const idempotencyLookupQuerySchema = z
  .object({
    idempotency_key: z
      .string()
      .min(1)
      .max(IDEMPOTENCY_KEY_MAX_CHARS)
      .describe("Alone: the task this Idempotency-Key created in the last 24 hours, as a list of at most one."),
  })
  .strict();

export function isIdempotencyKeyLookup(query: Record<string, unknown>): boolean {
  return Object.hasOwn(query, "idempotency_key");
}

// The task an Idempotency-Key (or MCP client_request_id) created, while the key is remembered (24 hours from
// admission), for the tenant that sent it only: a client whose create timed out finds its task without replaying
// the request. A list of at most one, so the answer has the shape of GET /v1/tasks whichever way it turns out.
export async function findTaskByIdempotencyKey(core: EnvelopeRuntime & { reads: ReadSql }, tenantId: string, query: Record<string, unknown>) {
  const { idempotency_key: key } = parseListQuery(idempotencyLookupQuerySchema, query);
  const rows = await core.reads`
    select t.* from idempotency_keys k join tasks t on t.id = k.task_id and t.tenant_id = k.tenant_id
     where k.tenant_id = ${tenantId} and k.key = ${key} and k.expires_at > ${core.clock().toISOString()}::timestamptz`;
  const ctx = envelopeContext(core);
  return wholePage<TaskEnvelope>(rows.map((raw) => toEnvelope(taskRowOf(raw), ctx)));
}
