import { Settlements } from "../credits/ledger.js";
import type { Db, Executor, Tx } from "../db/client.js";
import type { TaskRow } from "./repository.js";

// One transaction for task endings that happen together (core/db/group-commit.ts): each ending runs in order
// exactly as it would alone — its state, output or error, its credit settlement, its capability's finish hook and
// the participants' parts — and the credit accounts they settle change once per tenant at the end, just before the
// commit. Many tasks of one tenant ending at once then wait on its account row once per group, not once per task.

export type TaskEnding = (tx: Tx, settlements: Settlements) => Promise<TaskRow | null>;

// A part another area of core plays in every task's ending, in its transaction, given by the runtime (so tasks/
// depends on none of them): the callback's first delivery attempt is one (core/callbacks/begin-delivery.ts). It
// gets the ended row and answers it as it left it.
export interface FinishParticipant {
  name: string;
  joinEnding(tx: Executor, ended: TaskRow): Promise<TaskRow>;
}

export function finishBatch(db: Db, endings: readonly TaskEnding[], participants: readonly FinishParticipant[]): Promise<(TaskRow | null)[]> {
  return db.transaction(async (tx) => {
    const settlements = new Settlements();
    const rows: (TaskRow | null)[] = [];
    for (const ending of endings) {
      let row = await ending(tx, settlements);
      for (const participant of participants) if (row) row = await participant.joinEnding(tx, row);
      rows.push(row);
    }
    await settlements.apply(tx);
    return rows;
  });
}
