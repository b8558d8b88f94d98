CREATE TABLE "tenant_retention" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"artifact_days" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "artifacts_expired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "artifacts" ADD COLUMN "expired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tenant_retention" ADD CONSTRAINT "tenant_retention_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "artifacts_unexpired_created_idx" ON "artifacts" USING btree ("created_at") WHERE "artifacts"."expired_at" is null;