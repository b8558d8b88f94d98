CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"key_hash" text NOT NULL,
	"display_prefix" text NOT NULL,
	"region" text NOT NULL,
	"areas" text[],
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash"),
	CONSTRAINT "api_keys_status_check" CHECK ("api_keys"."status" in ('active', 'revoked'))
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone,
	CONSTRAINT "tenants_status_check" CHECK ("tenants"."status" in ('active', 'disabled'))
);
--> statement-breakpoint
CREATE TABLE "credit_accounts" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"available" bigint DEFAULT 0 NOT NULL,
	"held" bigint DEFAULT 0 NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	"granted" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_accounts_available_check" CHECK ("credit_accounts"."available" >= 0),
	CONSTRAINT "credit_accounts_held_check" CHECK ("credit_accounts"."held" >= 0),
	CONSTRAINT "credit_accounts_spent_check" CHECK ("credit_accounts"."spent" >= 0),
	CONSTRAINT "credit_accounts_invariant_check" CHECK ("credit_accounts"."granted" = "credit_accounts"."available" + "credit_accounts"."held" + "credit_accounts"."spent")
);
--> statement-breakpoint
CREATE TABLE "credit_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"task_id" text,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_ledger_kind_check" CHECK ("credit_ledger"."kind" in ('grant', 'hold', 'capture', 'release', 'charge')),
	CONSTRAINT "credit_ledger_amount_check" CHECK ("credit_ledger"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"tenant_id" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"task_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_tenant_id_key_pk" PRIMARY KEY("tenant_id","key")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"capability" text NOT NULL,
	"workload_type" text DEFAULT 'model' NOT NULL,
	"status" text NOT NULL,
	"model" text NOT NULL,
	"resolved_model" text NOT NULL,
	"model_selection_reason" text,
	"provider_family" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"input" jsonb NOT NULL,
	"progress" jsonb,
	"output" jsonb,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" jsonb,
	"quote" jsonb NOT NULL,
	"usage" jsonb,
	"billing_mode" text NOT NULL,
	"held_micro" bigint DEFAULT 0 NOT NULL,
	"charged_micro" bigint DEFAULT 0 NOT NULL,
	"refunded_micro" bigint DEFAULT 0 NOT NULL,
	"callback_url" text,
	"callback_signing_key_id" text,
	"callback_state" jsonb,
	"idempotency_key" text,
	"surface" text NOT NULL,
	"request_id" text NOT NULL,
	"provider_ref" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"deadline_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"cancel_requested_at" timestamp with time zone,
	"cancel_reason" text,
	CONSTRAINT "tasks_status_check" CHECK ("tasks"."status" in ('queued', 'running', 'succeeded', 'failed', 'canceled'))
);
--> statement-breakpoint
CREATE TABLE "artifacts" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"task_id" text,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"byte_size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"media" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_accounts" ADD CONSTRAINT "credit_accounts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_tenant_idx" ON "api_keys" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "credit_ledger_tenant_idx" ON "credit_ledger" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_task_hold_once" ON "credit_ledger" USING btree ("task_id") WHERE "credit_ledger"."kind" = 'hold';--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_task_settle_once" ON "credit_ledger" USING btree ("task_id") WHERE "credit_ledger"."kind" in ('capture', 'release', 'charge');--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tasks_tenant_id_idx" ON "tasks" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "tasks_open_deadline_idx" ON "tasks" USING btree ("deadline_at") WHERE "tasks"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "artifacts_tenant_idx" ON "artifacts" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "artifacts_task_idx" ON "artifacts" USING btree ("task_id");