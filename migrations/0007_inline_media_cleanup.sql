-- Written by hand: a task that ends before its worker resolved its media (canceled while queued, past its
-- deadline) no longer needs its data URIs; whatever path ends it, they go with its last status change.
CREATE FUNCTION "drop_inline_media_of_ended_task"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "task_inline_media" WHERE "task_id" = NEW."id";
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_drop_inline_media"
	AFTER UPDATE OF "status" ON "tasks"
	FOR EACH ROW
	WHEN (NEW."status" IN ('succeeded', 'failed', 'canceled') AND OLD."status" IN ('queued', 'running'))
	EXECUTE FUNCTION "drop_inline_media_of_ended_task"();
