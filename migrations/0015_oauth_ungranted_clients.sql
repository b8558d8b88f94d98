ALTER TABLE "oauth_records" ADD COLUMN "granted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "oauth_records_ungranted_clients_idx" ON "oauth_records" USING btree ("created_at") WHERE "oauth_records"."kind" = 'Client' and "oauth_records"."granted_at" is null;--> statement-breakpoint
-- Clients registered before the column: those a grant names were granted (a grant lives longer than its tokens).
UPDATE "oauth_records" AS "client" SET "granted_at" = now() WHERE "client"."kind" = 'Client' AND EXISTS (SELECT 1 FROM "oauth_records" AS "grant" WHERE "grant"."kind" = 'Grant' AND "grant"."client_id" = "client"."id");
