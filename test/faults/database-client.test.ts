import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryTimeout } from "../../core/db/client.js";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";

// The database client as patched on install (patches/postgres+3.4.9.patch): a query that gets no answer within
// its query_timeout fails as a lost connection instead of waiting forever, and the client goes on with a new
// connection. A statement that is merely slow stands in for an answer lost in a database restart: both leave the
// client waiting with nothing arriving.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.drop());

describe("a query without an answer", () => {
  it("fails with CONNECTION_CLOSED after query_timeout, and the next query runs on a new connection", async () => {
    const sql = postgres(database.url, { ...queryTimeout(500), max: 1, onnotice: () => {} });
    try {
      const [before] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      const started = Date.now();
      const failure = await sql`select pg_sleep(5)`.then(
        () => null,
        (error: { code?: string }) => error,
      );
      expect(failure?.code).toBe("CONNECTION_CLOSED");
      expect(Date.now() - started).toBeLessThan(4500);
      const [after] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      expect(after?.pid).not.toBe(before?.pid);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it("fails every query of a pipeline in flight on a reserved connection, which is not handed out again", async () => {
    const sql = postgres(database.url, { ...queryTimeout(500), max: 1, onnotice: () => {} });
    try {
      const reserved = await sql.reserve();
      const outcomes = await Promise.allSettled([reserved`begin`, reserved`select pg_sleep(5)`, reserved`commit`]);
      reserved.release();
      expect(outcomes.map((o) => (o.status === "rejected" ? (o.reason as { code?: string }).code : "answered"))).toEqual([
        "answered",
        "CONNECTION_CLOSED",
        "CONNECTION_CLOSED",
      ]);
      const [row] = await sql<{ ok: number }[]>`select 1 as ok`;
      expect(row?.ok).toBe(1);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});

describe("a reservation waiting for a connection", () => {
  it("is served by the connection that replaces a lost one", async () => {
    const sql = postgres(database.url, { ...queryTimeout(5000), max: 1, onnotice: () => {} });
    const admin = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const [session] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      const pid = session!.pid;
      // The pool's only connection is busy, so the reservation waits; then the database ends that session.
      const busy = sql`select pg_sleep(5)`.catch((error: { code?: string }) => error.code);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const reservation = sql.reserve();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await admin`select pg_terminate_backend(${pid})`;
      expect(await busy).toBe("CONNECTION_CLOSED");
      const reserved = await Promise.race([reservation, new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000))]);
      expect(reserved, "the reservation never resolved").not.toBeNull();
      const [row] = await reserved!<{ ok: number }[]>`select 1 as ok`;
      expect(row?.ok).toBe(1);
      reserved!.release();
      const [after] = await sql<{ ok: number }[]>`select 1 as ok`;
      expect(after?.ok).toBe(1);
    } finally {
      await admin.end({ timeout: 1 });
      await sql.end({ timeout: 1 });
    }
  });
});

describe("a reservation whose connection is lost", () => {
  it("fails every later query at once, while the pool reconnects for what was waiting", async () => {
    const sql = postgres(database.url, { ...queryTimeout(5000), max: 1, onnotice: () => {} });
    const admin = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const reserved = await sql.reserve();
      const [session] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
      const pid = session!.pid;
      // A pool query waits for the only connection; when the reservation's session ends, the pool reconnects that
      // connection for it.
      const waiting = sql<{ ok: number }[]>`select 1 as ok`;
      const waited = waiting.then((rows) => rows[0]?.ok);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await admin`select pg_terminate_backend(${pid})`;
      expect(await waited).toBe(1);
      const started = Date.now();
      const rollback = await reserved`rollback`.then(
        () => "answered",
        (error: { code?: string }) => error.code,
      );
      expect(rollback).toBe("CONNECTION_CLOSED");
      expect(Date.now() - started).toBeLessThan(1000);
      reserved.release();
      const [after] = await sql<{ ok: number }[]>`select 1 as ok`;
      expect(after?.ok).toBe(1);
    } finally {
      await admin.end({ timeout: 1 });
      await sql.end({ timeout: 1 });
    }
  });
});
