import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { admissionConnections, preparedReads, sharedPool, transitionsDb, type Database } from "../../core/db/client.js";
import { noPipelining } from "../../core/db/driver-options.js";
import { pipelinedTransaction } from "../../core/db/pipelined-transaction.js";
import { startTasks } from "../../core/db/statements/start-tasks.js";
import { transitionTask } from "../../core/db/statements/transition-task.js";
import { Settlements } from "../../core/credits/ledger.js";
import { readBalances } from "../../core/db/statements/read-balances.js";
import { admitBatch } from "../../core/tasks/admission-batch.js";
import { finishBatch } from "../../core/tasks/finish-batch.js";
import { readTask } from "../../core/tasks/task-reads.js";
import { START_POLICY } from "../../core/tasks/tenant-slots.js";

// The executor kinds of core/db/client.ts are nominal: `npm run typecheck` (tsc --noEmit over test/ too) fails
// if any line marked @ts-expect-error below compiles, that is if a statement accepts an executor of the wrong kind.
// The function is never called: what it proves, it proves at compile time.
function wrongExecutors(database: Database): void {
  const { db, direct, reads, transitions } = database;
  const starting = { taskId: "task", jobId: "job", deferrals: 0 };

  // Task starts run on the prepared, pipelining transitions client, and only there.
  void startTasks(transitions, [starting], [], START_POLICY, new Date());
  // @ts-expect-error the shared pool is not the transitions client
  void startTasks(db, [starting], [], START_POLICY, new Date());
  // Endings' group transactions likewise.
  void finishBatch(transitions, [], []);
  // @ts-expect-error the shared pool is not the transitions client
  void finishBatch(db, [], []);

  // The shared pool and transactions run the ordinary statements; the transitions client does not.
  void transitionTask(db, "task", "advance", {});
  void db.transaction((tx) => transitionTask(tx, "task", "advance", {}));
  // @ts-expect-error the transitions client runs only starts and endings
  void transitionTask(transitions, "task", "advance", {});

  // A settlement asks for a transaction: the pool alone will not do.
  const settlements = new Settlements();
  void db.transaction((tx) => settlements.settle(tx, "tenant", "task", 1n, 1n));
  // @ts-expect-error the shared pool is not a transaction
  void settlements.settle(db, "tenant", "task", 1n, 1n);

  // The prepared reads and the admission's connections are both postgres.js clients, and still not interchangeable.
  void readTask(reads, "task");
  // @ts-expect-error the admission's connections are not the prepared reads
  void readTask(direct, "task");
  void admitBatch(direct, []);
  // @ts-expect-error the prepared reads are not the admission's connections
  void admitBatch(reads, []);

  // The reads that judge an admission run inside its transaction, not on the connections around it.
  void pipelinedTransaction(direct, (tx) => readBalances(tx, ["tenant"]));
  // @ts-expect-error the admission's connections are not its transaction
  void readBalances(direct, ["tenant"]);
}

describe("executor kinds", () => {
  it("are given only by their constructors, which refuse a client built against the kind's pipelining rule", async () => {
    expect(typeof wrongExecutors).toBe("function");
    // postgres.js connects on first use: these clients never open a connection.
    const url = "postgres://nobody@127.0.0.1:1/none";
    const pipelining = postgres(url, { max: 1 });
    const unpipelined = postgres(url, { ...noPipelining, max: 1 });
    expect(() => sharedPool(pipelining)).toThrow(/must not pipeline/);
    expect(() => preparedReads(pipelining)).toThrow(/must not pipeline/);
    expect(() => admissionConnections(unpipelined)).toThrow(/pipeline/);
    expect(() => transitionsDb(unpipelined)).toThrow(/UNSAFE_TRANSACTION/);
    expect(() => sharedPool(unpipelined)).not.toThrow();
    expect(() => transitionsDb(pipelining)).not.toThrow();
    await Promise.all([pipelining.end(), unpipelined.end()]);
  });
});
