import { getTableColumns, sql, SQL } from "drizzle-orm";
import { tasks } from "./schema/index.js";
import { UnexpectedRow } from "./statements/row-parsing.js";
import { TASK_STATUSES } from "./task-state-machine.js";

// Task rows read or written by hand-written statements (`select *`, `update … returning *`, the admission batch's
// insert), mapped as drizzle maps its own. The worker runs these for every task: drizzle's query builder spent
// more of the worker's CPU building an `update … returning` of every column than Postgres spent running it
// (bench/, the completion profile).

export type TaskRow = typeof tasks.$inferSelect;
export type NewTaskRow = typeof tasks.$inferInsert;
// Column values, or SQL expressions evaluated by the UPDATE itself. Never the status: a transition's own
// (core/db/task-state-machine.ts) is the only way a status is written.
export type TaskChanges = { [K in Exclude<keyof NewTaskRow, "status">]?: NewTaskRow[K] | SQL };

// Every column of the table by its property name: statements name them all, so a row maps onto them whatever
// columns migrations add.
const COLUMNS = Object.entries(getTableColumns(tasks));
const COLUMN_OF = new Map(COLUMNS);
export const TASK_COLUMN_NAMES: readonly string[] = COLUMNS.map(([, column]) => column.name);

// A row as a driver returned it (postgres.js with its own parsers, or with drizzle's), parsed into the TaskRow
// drizzle gives: every column of the table must be there (a statement that left one out, or a table a migration
// changed under a running process, fails here and names it), and the status must be one of the state machine's.
export function taskRowOf(raw: Record<string, unknown>): TaskRow {
  const row: Record<string, unknown> = {};
  for (const [property, column] of COLUMNS) {
    const value = raw[column.name];
    if (value === undefined) throw new UnexpectedRow("a task row", column.name, "present", value);
    row[property] = value === null ? null : column.mapFromDriverValue(value);
  }
  if (!(TASK_STATUSES as readonly unknown[]).includes(row.status)) throw new UnexpectedRow("a task row", "status", "a task status", row.status);
  return row as TaskRow;
}

// A row as a JSON record by column name, for statements that read rows from JSON (jsonb_populate_recordset, over
// a null base row): a null column is left out, as the statement reads a missing key as null, which spares every
// admission the JSON of a third of the columns.
export function taskRecordOf(row: TaskRow): Record<string, unknown> {
  const values: Record<string, unknown> = row;
  const record: Record<string, unknown> = {};
  for (const [property, column] of COLUMNS) {
    const value = values[property];
    if (value === null || value === undefined) continue;
    record[column.name] = typeof value === "bigint" ? value.toString() : value instanceof Date ? value.toISOString() : value;
  }
  return record;
}

// `a = $1`, `b = <expression>`, … for an UPDATE of tasks: values are encoded by their column, as drizzle's own
// `set` does; SQL expressions are taken as they are.
export function taskAssignments(changes: TaskChanges): SQL[] {
  return Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([property, value]) => {
      const column = COLUMN_OF.get(property);
      if (!column) throw new Error(`tasks has no column for ${property}`);
      const assigned = value instanceof SQL ? value : value === null ? sql`null` : sql.param(value, column);
      return sql`${sql.identifier(column.name)} = ${assigned}`;
    });
}
