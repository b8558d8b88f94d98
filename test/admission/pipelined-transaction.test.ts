import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneStatement } from "../../core/db/one-statement.js";
import { pipelinedTransaction } from "../../core/db/pipelined-transaction.js";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";
import { admissionConnections, type DirectSql } from "../../core/db/client.js";

// Admission batches run in a transaction whose BEGIN is pipelined with its first statements
// (core/db/pipelined-transaction.ts): all of it commits, or none of it.

let database: TestDatabase;
let sql: DirectSql;
beforeAll(async () => {
  database = await createTestDatabase();
  sql = admissionConnections(postgres(database.url, { max: 2, onnotice: () => {} }));
  await sql`create table pipelined_rows (id int primary key, note text not null)`;
});
afterAll(async () => {
  await sql?.end();
  await database?.drop();
});

const rows = async () => (await sql<{ id: number }[]>`select id from pipelined_rows order by id`).map((r) => r.id);

describe("a pipelined transaction", () => {
  it("commits what its statements wrote and answers the body's value", async () => {
    const value = await pipelinedTransaction(sql, async (tx) => {
      const [[first]] = await Promise.all([tx<{ n: number }[]>`select 41 + 1 as n`, tx`insert into pipelined_rows values (1, 'one')`]);
      await tx`insert into pipelined_rows values (2, 'two')`;
      return first?.n;
    });
    expect(value).toBe(42);
    expect(await rows()).toEqual([1, 2]);
  });

  it("leaves nothing behind when a statement fails in Postgres, and surfaces its error", async () => {
    const failing = pipelinedTransaction(sql, async (tx) => {
      await Promise.all([tx`insert into pipelined_rows values (3, 'three')`, tx`insert into pipelined_rows values (1, 'again')`]);
    });
    await expect(failing).rejects.toMatchObject({ code: "23505" });
    expect(await rows()).toEqual([1, 2]);
  });

  it("leaves nothing behind when the body throws after writing", async () => {
    const failing = pipelinedTransaction(sql, async (tx) => {
      await tx`insert into pipelined_rows values (4, 'four')`;
      throw new Error("refused after writing");
    });
    await expect(failing).rejects.toThrow("refused after writing");
    expect(await rows()).toEqual([1, 2]);
  });

  it("commits with its last statement sent right behind it, answering that statement's rows", async () => {
    const answered = await pipelinedTransaction(sql, async (tx, commitWith) => {
      const write = oneStatement(tx, [{ name: "written", statement: tx`insert into pipelined_rows values (5, 'five'), (6, 'six') returning id` }], tx`select count(*)::int as n from written`);
      return commitWith(write);
    });
    expect(answered).toEqual([{ n: 2 }]);
    expect(await rows()).toEqual([1, 2, 5, 6]);
  });

  it("commits nothing of a one-statement write when any of its steps fails, and surfaces the error", async () => {
    const failing = pipelinedTransaction(sql, async (tx, commitWith) => {
      const steps = [
        { name: "fresh", statement: tx`insert into pipelined_rows values (7, 'seven')` },
        { name: "taken", statement: tx`insert into pipelined_rows values (1, 'again')` },
      ];
      await commitWith(oneStatement(tx, steps, tx`select 1`));
    });
    await expect(failing).rejects.toMatchObject({ code: "23505" });
    expect(await rows()).toEqual([1, 2, 5, 6]);
    await expect(pipelinedTransaction(sql, async (tx) => (await tx`select 3 as n`)[0]?.n)).resolves.toBe(3);
  });

  it("gives its connection back either way", async () => {
    for (let i = 0; i < 5; i++) await pipelinedTransaction(sql, (tx) => tx`select 1`).catch(() => {});
    await expect(pipelinedTransaction(sql, async (tx) => (await tx`select 2 as n`)[0]?.n)).resolves.toBe(2);
  });
});
