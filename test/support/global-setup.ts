import postgres from "postgres";
import { migrateDatabase } from "../../core/db/migrate.js";
import { adminUrl, TEMPLATE_DB } from "./databases.js";

// Once per `vitest run`: a migrated template database that each test file clones (CREATE DATABASE … TEMPLATE),
// so every file gets a fresh, real, fully migrated Postgres database in a few milliseconds.
export default async function setup(): Promise<() => Promise<void>> {
  const admin = postgres(adminUrl("postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin.unsafe(`create database ${TEMPLATE_DB}`);
  await migrateDatabase(adminUrl(TEMPLATE_DB));
  await admin.end();
  return async () => {
    const cleanup = postgres(adminUrl("postgres"), { max: 1, onnotice: () => {} });
    await cleanup.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`);
    await cleanup.end();
  };
}
