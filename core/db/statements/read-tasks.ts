import { taskRowOf, type TaskRow } from "../task-rows.js";
import type { ReadSql } from "../client.js";

// Tasks by id, the reads of one turn together (core/tasks/task-reads.ts): one prepared statement on the read
// connections, each row parsed once however many lookups asked for it. An id without a task is absent.
export async function readTasksById(reads: ReadSql, ids: readonly string[]): Promise<Map<string, TaskRow>> {
  const rows = await reads<Record<string, unknown>[]>`select * from tasks where id = any(${ids}::text[])`;
  return new Map(
    rows.map((raw) => {
      const row = taskRowOf(raw);
      return [row.id, row];
    }),
  );
}
