import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.js";

export const tasks = pgTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    capability: text("capability").notNull(),
    workloadType: text("workload_type").notNull().default("model"),
    status: text("status").notNull(),
    model: text("model").notNull(),
    resolvedModel: text("resolved_model").notNull(),
    modelSelectionReason: text("model_selection_reason"),
    providerFamily: text("provider_family").notNull(),
    metadata: jsonb("metadata").notNull().default({}),
    input: jsonb("input").notNull(),
    progress: jsonb("progress"),
    output: jsonb("output"),
    warnings: jsonb("warnings").notNull().default([]),
    error: jsonb("error"),
    // The price computed at admission; `usage` is filled from measurement when the task ends.
    quote: jsonb("quote").notNull(),
    // The task's media inputs as the worker resolved them (artifact and decoded facts, by JSON Pointer).
    resolvedMedia: jsonb("resolved_media"),
    usage: jsonb("usage"),
    billingMode: text("billing_mode").notNull(),
    heldMicro: bigint("held_micro", { mode: "bigint" }).notNull().default(sql`0`),
    chargedMicro: bigint("charged_micro", { mode: "bigint" }).notNull().default(sql`0`),
    refundedMicro: bigint("refunded_micro", { mode: "bigint" }).notNull().default(sql`0`),
    callbackUrl: text("callback_url"),
    callbackSigningKeyId: text("callback_signing_key_id"),
    callbackState: jsonb("callback_state"),
    idempotencyKey: text("idempotency_key"),
    // The surface (rest, mcp) and request id that created the task, shown in `social` and in `error.request_id`.
    surface: text("surface").notNull(),
    requestId: text("request_id").notNull(),
    providerRef: text("provider_ref"),
    attempts: integer("attempts").notNull().default(0),
    // A worker held on the task's behalf (core/tasks/tenant-slots.ts): `tenant_slot_until` is set while a job
    // works on it (its execution, then each callback delivery) and is the lease after which the sweep frees it if
    // the job never says so; `tenant_slot` numbers a callback delivery's slot among the tenant's few, null for an
    // execution.
    tenantSlot: smallint("tenant_slot"),
    tenantSlotUntil: timestamp("tenant_slot_until", { withTimezone: true }),
    // The API key that created the task (null for a credential without one), for a limit on one key's running tasks.
    apiKeyId: text("api_key_id"),
    // The graphile-worker job allowed to run the task's execution: the one that started it (which may run again
    // after its worker died), or the one a deferral or a retry enqueued. Null before the first start (the
    // admission's job) and once the execution has handed the task to its polls.
    executionToken: text("execution_token"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    deadlineAt: timestamp("deadline_at", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    cancelRequestedAt: timestamp("cancel_requested_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    // When the retention sweep deleted the task's artifacts (core/artifacts/retention.ts): its envelope says so.
    artifactsExpiredAt: timestamp("artifacts_expired_at", { withTimezone: true }),
  },
  (t) => [
    check("tasks_status_check", sql`${t.status} in ('queued', 'running', 'succeeded', 'failed', 'canceled')`),
    // The delivery log of the task's callback (core/callbacks/state.ts); a signing key only signs a callback.
    check(
      "tasks_callback_state_check",
      sql`${t.callbackState} is null or (${t.callbackUrl} is not null and ${t.callbackState}->>'status' in ('pending', 'retrying', 'delivered', 'failed'))`,
    ),
    check("tasks_callback_signing_key_check", sql`${t.callbackSigningKeyId} is null or ${t.callbackUrl} is not null`),
    // GET /v1/tasks: a tenant's tasks newest first by created_at, then id (read backwards), one range scan per page.
    index("tasks_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("tasks_open_deadline_idx").on(t.deadlineAt).where(sql`${t.status} in ('queued', 'running')`),
    // A delivery slot has one holder at a time, however many workers deliver the tenant's callbacks at once.
    uniqueIndex("tasks_tenant_slot_idx").on(t.tenantId, t.tenantSlot).where(sql`${t.tenantSlot} is not null`),
    // The start statement's: the tenants with waiting tasks (a skip scan) and each one's oldest waiting tasks.
    index("tasks_waiting_idx").on(t.tenantId, t.createdAt, t.id).where(sql`${t.status} = 'queued' and ${t.executionToken} is null`),
    // The task a job holds, found by the job's id when it runs again (a crash, a retry).
    index("tasks_execution_token_idx").on(t.executionToken).where(sql`${t.executionToken} is not null`),
    // The workers each tenant holds now, for its share.
    index("tasks_worker_held_idx").on(t.tenantId).where(sql`${t.tenantSlotUntil} is not null`),
    // Running tasks by family and by key, counted for the limits an operator set on them.
    index("tasks_running_family_idx").on(t.providerFamily).where(sql`${t.status} = 'running'`),
    index("tasks_running_key_idx").on(t.apiKeyId).where(sql`${t.status} = 'running' and ${t.apiKeyId} is not null`),
    index("tasks_running_tenant_idx").on(t.tenantId).where(sql`${t.status} = 'running'`),
  ],
);

// One row per (tenant, Idempotency-Key) for 24 hours: the key's fingerprint and the task it created.
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    tenantId: text("tenant_id").notNull(),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    taskId: text("task_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
