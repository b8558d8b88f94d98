-- Written by hand: every change of a task's status or progress is kept as an event and announced on the channel
-- `task_changes` (payload `<task_id> <event seq> <status>`), so that waiting requests and event streams are woken
-- by Postgres (one listening connection per process) instead of polling. The events let a stream resume after
-- the last one it sent (Last-Event-ID); the sweep drops them when a day old.
CREATE TABLE "task_events" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"task_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"progress" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "task_events_task_seq" ON "task_events" ("task_id", "seq");
--> statement-breakpoint
CREATE INDEX "task_events_created_at" ON "task_events" ("created_at");
--> statement-breakpoint
CREATE FUNCTION "record_task_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	event_seq bigint;
BEGIN
	INSERT INTO "task_events" ("task_id", "kind", "status", "progress")
	VALUES (
		NEW."id",
		CASE WHEN OLD."status" IS DISTINCT FROM NEW."status" THEN 'status' ELSE 'progress' END,
		NEW."status",
		NEW."progress"
	)
	RETURNING "seq" INTO event_seq;
	PERFORM pg_notify('task_changes', NEW."id" || ' ' || event_seq || ' ' || NEW."status");
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_record_change"
	AFTER UPDATE OF "status", "progress" ON "tasks"
	FOR EACH ROW
	WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."progress" IS DISTINCT FROM NEW."progress")
	EXECUTE FUNCTION "record_task_change"();
