import { Settlements } from "../credits/ledger.js";
import type { Db, Tx } from "../db/client.js";
import type { TaskRow } from "./repository.js";

// One transaction for task endings that happen together (core/db/group-commit.ts): each ending runs in order
// exactly as it would alone — its state, output or error, its credit settlement and its callback's first attempt —
// and the credit accounts they settle change once per tenant at the end, just before the commit. Many tasks of one
// tenant ending at once then wait on its account row once per group, not once per task.

export type TaskEnding = (tx: Tx, settlements: Settlements) => Promise<TaskRow | null>;

export function finishBatch(db: Db, endings: readonly TaskEnding[]): Promise<(TaskRow | null)[]> {
  return db.transaction(async (tx) => {
    const settlements = new Settlements();
    const rows: (TaskRow | null)[] = [];
    for (const ending of endings) rows.push(await ending(tx, settlements));
    await settlements.apply(tx);
    return rows;
  });
}
