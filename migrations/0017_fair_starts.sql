CREATE TABLE "running_limits" (
	"scope" text NOT NULL,
	"subject" text NOT NULL,
	"max_running" integer,
	"weight" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "running_limits_scope_subject_pk" PRIMARY KEY("scope","subject"),
	CONSTRAINT "running_limits_scope_check" CHECK ("running_limits"."scope" in ('tenant', 'key', 'family')),
	CONSTRAINT "running_limits_max_check" CHECK ("running_limits"."max_running" is null or "running_limits"."max_running" between 1 and 100000),
	CONSTRAINT "running_limits_weight_check" CHECK ("running_limits"."weight" is null or ("running_limits"."scope" = 'tenant' and "running_limits"."weight" between 1 and 100)),
	CONSTRAINT "running_limits_some_check" CHECK ("running_limits"."max_running" is not null or "running_limits"."weight" is not null)
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "api_key_id" text;--> statement-breakpoint
CREATE INDEX "tasks_waiting_idx" ON "tasks" USING btree ("tenant_id","created_at","id") WHERE "tasks"."status" = 'queued' and "tasks"."execution_token" is null;--> statement-breakpoint
CREATE INDEX "tasks_execution_token_idx" ON "tasks" USING btree ("execution_token") WHERE "tasks"."execution_token" is not null;--> statement-breakpoint
CREATE INDEX "tasks_worker_held_idx" ON "tasks" USING btree ("tenant_id") WHERE "tasks"."tenant_slot_until" is not null;--> statement-breakpoint
CREATE INDEX "tasks_running_family_idx" ON "tasks" USING btree ("provider_family") WHERE "tasks"."status" = 'running';--> statement-breakpoint
CREATE INDEX "tasks_running_key_idx" ON "tasks" USING btree ("api_key_id") WHERE "tasks"."status" = 'running' and "tasks"."api_key_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_running_tenant_idx" ON "tasks" USING btree ("tenant_id") WHERE "tasks"."status" = 'running';