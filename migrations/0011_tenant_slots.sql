ALTER TABLE "tasks" ADD COLUMN "tenant_slot" smallint;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "tenant_slot_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "execution_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_tenant_slot_idx" ON "tasks" USING btree ("tenant_id","tenant_slot") WHERE "tasks"."tenant_slot" is not null;