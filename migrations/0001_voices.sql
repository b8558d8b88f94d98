CREATE TABLE "voices" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"display_name" text NOT NULL,
	"language" text,
	"models" text[] NOT NULL,
	"status" text NOT NULL,
	"task_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "voices_status_check" CHECK ("voices"."status" in ('pending', 'active', 'deleted'))
);
--> statement-breakpoint
ALTER TABLE "voices" ADD CONSTRAINT "voices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "voices_tenant_id_idx" ON "voices" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "voices_task_idx" ON "voices" USING btree ("task_id");