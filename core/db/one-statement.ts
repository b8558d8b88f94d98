import type postgres from "postgres";
import type { AdmissionSql } from "./client.js";

// A statement written but not sent: postgres.js sends a query only when it is awaited, and one placed inside
// another's template becomes part of that statement (with its parameters).
export type Fragment = postgres.PendingQuery<postgres.Row[]>;

// One data-modifying statement of a write that must happen whole or not at all, named so that `last` (the
// statement's main query) can read what it RETURNs.
export interface WriteStep {
  name: string;
  statement: Fragment;
}

// The steps as the WITH clause of one statement ending in `last`. Postgres runs every data-modifying WITH
// statement to completion, whether or not anything reads it, and the statement succeeds or fails as a whole:
// unlike several statements, it cannot reach the database in part.
export function oneStatement(sql: AdmissionSql, steps: readonly WriteStep[], last: Fragment): Fragment {
  const named = steps.map((step) => sql`${sql.unsafe(step.name)} as (${step.statement})`);
  const clause = named.reduce((joined, step) => sql`${joined}, ${step}`);
  return sql`with ${clause} ${last}`;
}
