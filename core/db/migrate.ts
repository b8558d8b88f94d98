import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate as drizzleMigrate } from "drizzle-orm/postgres-js/migrator";
import { runMigrations as graphileMigrations } from "graphile-worker";
import postgres from "postgres";

// The project's migrations/ folder, found upwards from this module: it runs from core/db/ as source (tsx, tests)
// and from dist/core/db/ once built.
function findMigrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "migrations");
    if (existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no migrations/meta/_journal.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export const MIGRATIONS_FOLDER = findMigrationsFolder();

// Several processes may start at once on one database; a session advisory lock lets exactly one migrate while
// the others wait and then find nothing to do.
const MIGRATION_LOCK = 72_417_001;

export async function migrateDatabase(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      await drizzleMigrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
      await graphileMigrations({ connectionString: url });
    } finally {
      await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}
