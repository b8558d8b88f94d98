CREATE TABLE "callback_signing_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"secret_ciphertext" text,
	"previous_secret_ciphertext" text,
	"previous_secret_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"retired_at" timestamp with time zone,
	CONSTRAINT "callback_signing_keys_status_check" CHECK ("callback_signing_keys"."status" in ('active', 'retired')),
	CONSTRAINT "callback_signing_keys_secret_check" CHECK (("callback_signing_keys"."status" = 'active') = ("callback_signing_keys"."secret_ciphertext" is not null))
);
--> statement-breakpoint
ALTER TABLE "callback_signing_keys" ADD CONSTRAINT "callback_signing_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "callback_signing_keys_tenant_id_idx" ON "callback_signing_keys" USING btree ("tenant_id","id");--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_callback_state_check" CHECK ("tasks"."callback_state" is null or ("tasks"."callback_url" is not null and "tasks"."callback_state"->>'status' in ('pending', 'retrying', 'delivered', 'failed')));--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_callback_signing_key_check" CHECK ("tasks"."callback_signing_key_id" is null or "tasks"."callback_url" is not null);