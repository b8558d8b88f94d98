-- Edited by hand: UNLOGGED (drizzle-kit cannot say it). Counters need no crash safety, and their per-request
-- update then commits without a WAL flush.
CREATE UNLOGGED TABLE "rate_limit_counters" (
	"bucket" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenant_rate_limits" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"per_key" integer,
	"per_tenant" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenant_rate_limits_per_key_check" CHECK ("tenant_rate_limits"."per_key" is null or "tenant_rate_limits"."per_key" > 0),
	CONSTRAINT "tenant_rate_limits_per_tenant_check" CHECK ("tenant_rate_limits"."per_tenant" is null or "tenant_rate_limits"."per_tenant" > 0)
);
--> statement-breakpoint
ALTER TABLE "tenant_rate_limits" ADD CONSTRAINT "tenant_rate_limits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;