import { pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tasks } from "./tasks.js";

// The data URIs of a task's input, kept out of `tasks.input` (which holds references to them) so that no read of
// a task carries media bytes. The worker stores each as an artifact and then deletes its row.
export const taskInlineMedia = pgTable(
  "task_inline_media",
  {
    taskId: text("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    // The JSON Pointer of the media input in the task's input.
    pointer: text("pointer").notNull(),
    dataUri: text("data_uri").notNull(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.pointer] })],
);
