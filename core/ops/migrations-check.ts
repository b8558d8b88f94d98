import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { MIGRATIONS_FOLDER } from "../db/migrate.js";

// The newest migration this code was built with: drizzle records each applied migration with the `when` of its
// journal entry, so the database is current when its newest record is at least this one.
function newestMigration(): { tag: string; when: number } {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  const newest = journal.entries.at(-1);
  if (!newest) throw new Error("the migrations journal has no entries");
  return newest;
}

export interface MigrationsStatus {
  current: boolean;
  expected: string;
  // The newest applied migration's time (ms), null before any.
  appliedThrough: number | null;
}

export async function checkMigrations(db: Db): Promise<MigrationsStatus> {
  const expected = newestMigration();
  const [schemas] = await db.execute<{ drizzle: boolean; graphile: boolean }>(sql`
    select to_regclass('drizzle.__drizzle_migrations') is not null as drizzle, to_regclass('graphile_worker.jobs') is not null as graphile`);
  if (!schemas?.drizzle) return { current: false, expected: expected.tag, appliedThrough: null };
  const [applied] = await db.execute<{ newest: string | null }>(sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`);
  const appliedThrough = applied?.newest ? Number(applied.newest) : null;
  return {
    current: schemas.graphile && appliedThrough !== null && appliedThrough >= expected.when,
    expected: expected.tag,
    appliedThrough,
  };
}
