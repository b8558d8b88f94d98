import { randomBytes } from "node:crypto";
import postgres from "postgres";

// Tests use the Postgres server of the machine (TEST_DATABASE_URL, default 127.0.0.1:5432 as user postgres).
const SERVER = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

// Named per `vitest run` by the global setup, so concurrent runs on one server never touch each other's template.
export function templateDatabase(): string {
  const name = process.env.SVC_TEST_TEMPLATE_DB;
  if (!name) throw new Error("SVC_TEST_TEMPLATE_DB is unset: run the tests through vitest (test/support/global-setup.ts)");
  return name;
}

export function adminUrl(database: string): string {
  const url = new URL(SERVER);
  url.pathname = `/${database}`;
  return url.toString();
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `svc_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name} template ${templateDatabase()}`);
  } finally {
    await admin.end();
  }
  return {
    url: adminUrl(name),
    name,
    drop: async () => {
      const cleanup = postgres(adminUrl("postgres"), { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
