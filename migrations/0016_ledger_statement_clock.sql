DROP INDEX "credit_ledger_tenant_idx";--> statement-breakpoint
ALTER TABLE "credit_ledger" ALTER COLUMN "created_at" SET DEFAULT clock_timestamp();--> statement-breakpoint
CREATE INDEX "credit_ledger_tenant_created_idx" ON "credit_ledger" USING btree ("tenant_id","created_at","id");