import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type postgres from "postgres";
import type { TransitionsDb } from "./client.js";

const dialect = new PgDialect();

// A short transaction sent in one write: BEGIN, the statements, COMMIT, answered in one round trip, where drizzle's
// transaction waits for the BEGIN's answer, then for each statement's, then for the COMMIT's. Postgres still runs
// them one after the other, each statement with a snapshot taken when it begins, so a lock taken by one statement
// holds for the ones after it. The statements are prepared, as the transitions client prepares drizzle's.
//
// For a transaction whose last statement is its only write: when a statement fails, Postgres fails the ones
// behind it and answers the COMMIT by rolling back; but a statement postgres.js fails before sending it (a
// parameter it cannot serialize) never reaches Postgres, and the COMMIT behind it commits what came before.
// Answers each statement's rows, in order; a failure is thrown once every answer is in, so the connection goes
// back to the pool outside any transaction.
export async function oneWriteTransaction(db: TransitionsDb, statements: readonly SQL[]): Promise<postgres.Row[][]> {
  const client = db.$client;
  const queries = statements.map((statement) => dialect.sqlToQuery(statement));
  const connection = await client.reserve();
  try {
    const answers = await Promise.allSettled([
      connection.unsafe("begin"),
      ...queries.map((query) => connection.unsafe(query.sql, query.params as postgres.ParameterOrJSON<never>[], { prepare: query.params.length > 0 })),
      connection.unsafe("commit"),
    ]);
    const failed = answers.find((answer) => answer.status === "rejected");
    if (failed) throw failed.reason;
    return answers.slice(1, -1).map((answer) => (answer as PromiseFulfilledResult<postgres.RowList<postgres.Row[]>>).value);
  } finally {
    connection.release();
  }
}
