import type postgres from "postgres";
import type { AdmissionTx, DirectSql } from "./client.js";
import type { Fragment } from "./one-statement.js";

// Ends a pipelined transaction with its last statement: the statement and the COMMIT go out back to back.
export type CommitWith = (last: Fragment) => Promise<postgres.Row[]>;

// A transaction whose BEGIN goes out with its first statements, on a connection reserved for it: with pipelining
// the BEGIN and the reads after it reach Postgres in one write and are answered in one round trip, where
// sql.begin waits for the BEGIN's answer before sending anything else (a round trip per admission batch, a
// quarter of its time under load). The statements `body` sends run in the transaction as they would in
// sql.begin; it commits when `body` resolves, and rolls back when `body` or the BEGIN fails.
//
// `body` may end the transaction itself with `commitWith(last)`, which sends its last statement with the COMMIT
// right behind it (one round trip less). That statement must be the transaction's only write: Postgres answers
// a COMMIT after a failed statement by rolling back, but a statement postgres.js fails before sending it (a
// parameter it cannot serialize) never reaches Postgres, and the COMMIT behind it would commit whatever the
// transaction wrote before. Without commitWith, the COMMIT is sent only once every statement has answered.
export async function pipelinedTransaction<T>(direct: DirectSql, body: (tx: AdmissionTx, commitWith: CommitWith) => Promise<T>): Promise<T> {
  const tx = (await direct.reserve()) as AdmissionTx;
  let ended = false;
  const commitWith: CommitWith = async (last) => {
    if (ended) throw new Error("this transaction has already ended");
    ended = true;
    const [rows] = await Promise.all([last, tx`commit`]);
    return rows;
  };
  try {
    const begun = tx`begin`;
    // Its failure also fails the statements behind it, which `body` awaits; it is surfaced below either way.
    begun.catch(() => {});
    let value: T;
    try {
      value = await body(tx, commitWith);
      await begun;
    } catch (error) {
      // After commitWith, Postgres has already ended the transaction (a failed statement's COMMIT rolls back).
      if (!ended) await tx`rollback`.catch(() => {});
      throw error;
    }
    if (!ended) await tx`commit`;
    return value;
  } finally {
    tx.release();
  }
}
