import { describe, expect, it } from "vitest";
import { isDatabaseConnectionFailure } from "../../worker/unrecorded-job-ends.js";

// The worker lets an unhandled rejection pass only when it is a database out of reach (worker/unrecorded-job-ends.ts,
// docs/workarounds.md #2); every other one still ends the process. The local queue's failed return of its jobs
// wraps its cause in a new Error that keeps the message alone, so the cause is recognised by its text: the CI's
// database-restart test once ended the worker on "the database system is shutting down", which the codes alone
// did not recognise.

const unreturned = (cause: string) => new Error(`Error occurred whilst returning jobs from local queue to database queue: ${cause}`);
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("which unhandled rejections the worker survives", () => {
  it("a database out of reach, by code or, wrapped by the local queue, by message", () => {
    expect(isDatabaseConnectionFailure(withCode("the database system is shutting down", "57P03"))).toBe(true);
    expect(isDatabaseConnectionFailure(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isDatabaseConnectionFailure(withCode("connection failure", "08006"))).toBe(true);
    for (const cause of [
      "connect ECONNREFUSED 127.0.0.1:5432",
      "the database system is shutting down",
      "the database system is starting up",
      "the database system is in recovery mode",
      "the database system is not yet accepting connections",
      "terminating connection due to administrator command",
      "terminating connection due to crash of another server process",
      "Connection terminated unexpectedly",
    ]) {
      expect(isDatabaseConnectionFailure(unreturned(cause)), cause).toBe(true);
    }
  });

  it("nothing else", () => {
    expect(isDatabaseConnectionFailure(unreturned('duplicate key value violates unique constraint "jobs_pkey"'))).toBe(false);
    expect(isDatabaseConnectionFailure(withCode('relation "tasks" does not exist', "42P01"))).toBe(false);
    expect(isDatabaseConnectionFailure(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseConnectionFailure("the database system is shutting down")).toBe(false);
  });
});
