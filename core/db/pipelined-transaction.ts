import type postgres from "postgres";
import type { DirectSql } from "./client.js";

// A transaction whose BEGIN goes out with its first statements, on a connection reserved for it: with pipelining
// the BEGIN and the reads after it reach Postgres in one write and are answered in one round trip, where
// sql.begin waits for the BEGIN's answer before sending anything else (a round trip per admission batch, a
// quarter of its time under load). The statements `body` sends run in the transaction as they would in
// sql.begin; it commits when `body` resolves, and rolls back when `body` or the BEGIN fails. The COMMIT is sent
// only once every statement has answered, so a statement that failed before reaching Postgres can never leave
// the others committed.
export async function pipelinedTransaction<T>(direct: DirectSql, body: (tx: postgres.ReservedSql) => Promise<T>): Promise<T> {
  const tx = await direct.reserve();
  try {
    const begun = tx`begin`;
    // Its failure also fails the statements behind it, which `body` awaits; it is surfaced below either way.
    begun.catch(() => {});
    let value: T;
    try {
      value = await body(tx);
      await begun;
    } catch (error) {
      await tx`rollback`.catch(() => {});
      throw error;
    }
    await tx`commit`;
    return value;
  } finally {
    tx.release();
  }
}
