import { Settlements } from "../credits/ledger.js";
import type { TransitionsDb, Tx } from "../db/client.js";
import type { TaskRow } from "./repository.js";

// One transaction for task endings that happen together (core/db/group-commit.ts): each ending runs as it would
// alone — its state, output or error, its credit settlement, its capability's finish hook and the participants'
// parts — and the credit accounts they settle change once per tenant at the end, just before the commit. Many
// tasks of one tenant ending at once then wait on its account row once per group, not once per task.
// The endings run side by side on the transaction's pipelining connection (core/db/client.ts, `endings`): their
// first statements go out together, then their second ones, so a group costs as many round trips as one ending
// has statements, not as all of them together. Postgres still runs the statements one at a time in the order
// sent, so two endings of one task in a group resolve as they would one after the other: the first one's guarded
// update wins and the other finds the task ended.

export type TaskEnding = (tx: Tx, settlements: Settlements) => Promise<TaskRow | null>;

// A part another area of core plays in every task's ending, in its transaction, given by the runtime (so tasks/
// depends on none of them): the callback's first delivery attempt is one (core/callbacks/begin-delivery.ts). It
// gets the ended row and answers it as it left it.
export interface FinishParticipant {
  name: string;
  joinEnding(tx: Tx, ended: TaskRow): Promise<TaskRow>;
}

export function finishBatch(db: TransitionsDb, endings: readonly TaskEnding[], participants: readonly FinishParticipant[]): Promise<(TaskRow | null)[]> {
  return db.transaction(async (tx) => {
    const settlements = new Settlements();
    // Every ending is waited for, also when one fails: none may send a statement once the transaction is over.
    const outcomes = await Promise.allSettled(
      endings.map(async (ending) => {
        let row = await ending(tx, settlements);
        for (const participant of participants) if (row) row = await participant.joinEnding(tx, row);
        return row;
      }),
    );
    const rows = outcomes.map((outcome) => {
      if (outcome.status === "rejected") throw outcome.reason;
      return outcome.value;
    });
    await settlements.apply(tx);
    return rows;
  });
}
