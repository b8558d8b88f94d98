CREATE TABLE "task_inline_media" (
	"task_id" text NOT NULL,
	"pointer" text NOT NULL,
	"data_uri" text NOT NULL,
	CONSTRAINT "task_inline_media_task_id_pointer_pk" PRIMARY KEY("task_id","pointer")
);
--> statement-breakpoint
ALTER TABLE "tenant_rate_limits" ADD COLUMN "upload_max_bytes" bigint;--> statement-breakpoint
ALTER TABLE "tenant_rate_limits" ADD COLUMN "upload_max_count" integer;--> statement-breakpoint
ALTER TABLE "task_inline_media" ADD CONSTRAINT "task_inline_media_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_rate_limits" ADD CONSTRAINT "tenant_rate_limits_upload_max_bytes_check" CHECK ("tenant_rate_limits"."upload_max_bytes" is null or "tenant_rate_limits"."upload_max_bytes" >= 0);--> statement-breakpoint
ALTER TABLE "tenant_rate_limits" ADD CONSTRAINT "tenant_rate_limits_upload_max_count_check" CHECK ("tenant_rate_limits"."upload_max_count" is null or "tenant_rate_limits"."upload_max_count" >= 0);