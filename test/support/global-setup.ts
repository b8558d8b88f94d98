import postgres from "postgres";
import { migrateDatabase } from "../../core/db/migrate.js";
import { randomBytes } from "node:crypto";
import { build } from "../../bin/build.js";
import { adminUrl } from "./databases.js";

// Once per `vitest run`: a migrated template database that each test file clones (CREATE DATABASE … TEMPLATE),
// so every file gets a fresh, real, fully migrated Postgres database in a few milliseconds.
export default async function setup(): Promise<() => Promise<void>> {
  // Tests run `svc` and `npm start` from dist/, as users do: compiled here once (when stale), so no test waits on tsc.
  build({ onlyIfStale: "cli/main.js" });
  const TEMPLATE_DB = `svc_test_template_${randomBytes(4).toString("hex")}`;
  process.env.SVC_TEST_TEMPLATE_DB = TEMPLATE_DB;
  const admin = postgres(adminUrl("postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${TEMPLATE_DB}`);
  await migrateDatabase(adminUrl(TEMPLATE_DB));
  await admin.end();
  return async () => {
    const cleanup = postgres(adminUrl("postgres"), { max: 1, onnotice: () => {} });
    await cleanup.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`);
    await cleanup.end();
  };
}
