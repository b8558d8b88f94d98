CREATE TABLE "spend_counters" (
	"scope" text NOT NULL,
	"owner" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"spent" bigint NOT NULL,
	"limit" bigint NOT NULL,
	CONSTRAINT "spend_counters_scope_owner_period_start_pk" PRIMARY KEY("scope","owner","period_start"),
	CONSTRAINT "spend_counters_within_limit_check" CHECK ("spend_counters"."spent" <= "spend_counters"."limit"),
	CONSTRAINT "spend_counters_spent_check" CHECK ("spend_counters"."spent" >= 0)
);
--> statement-breakpoint
CREATE TABLE "spend_limits" (
	"scope" text NOT NULL,
	"owner" text NOT NULL,
	"tenant_id" text NOT NULL,
	"period" text NOT NULL,
	"limit" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spend_limits_scope_owner_pk" PRIMARY KEY("scope","owner"),
	CONSTRAINT "spend_limits_scope_check" CHECK ("spend_limits"."scope" in ('key', 'tenant')),
	CONSTRAINT "spend_limits_period_check" CHECK ("spend_limits"."period" in ('day', 'month')),
	CONSTRAINT "spend_limits_limit_check" CHECK ("spend_limits"."limit" >= 0)
);
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "api_key_id" text;--> statement-breakpoint
ALTER TABLE "spend_limits" ADD CONSTRAINT "spend_limits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "spend_limits_tenant_idx" ON "spend_limits" USING btree ("tenant_id");