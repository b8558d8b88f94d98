DROP INDEX "tasks_tenant_id_idx";--> statement-breakpoint
CREATE INDEX "tasks_tenant_created_idx" ON "tasks" USING btree ("tenant_id","created_at","id");