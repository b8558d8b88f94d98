import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { noPipelining } from "./driver-options.js";
import { preparingStatements } from "./prepared-statements.js";
import * as schema from "./schema/index.js";

// The kinds of database executor. Each client below has rules of its own (what it may run, whether it prepares,
// whether it pipelines), and a statement that runs on the wrong one fails only under load (UNSAFE_TRANSACTION,
// stalled pipelines, parsers it does not expect). So each kind is a nominal type: a client gets its kind only from
// its constructor here, two kinds built on the same library type are not interchangeable, and a statement's
// signature names the kind it may run on. test/db/executor-kinds.test.ts shows the compiler refusing the wrong one.
declare const executorKind: unique symbol;
type Kind<K extends string> = { readonly [executorKind]: K };
// With the postgres.js client drizzle was given, as drizzle() returns it (core/db/one-write-transaction.ts sends on it).
type Drizzle = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };

// The shared pool (drizzle, unprepared, no pipelining): reads and ordinary writes, and the transactions of
// everything but admissions and task endings.
export type Db = Drizzle & Kind<"pool">;
// A transaction, on the shared pool or the transitions client: what a function asks for when its statements must
// commit together with its caller's (a settlement with its task's ending, a job with the row that needs it).
export type Tx = Parameters<Parameters<Drizzle["transaction"]>[0]>[0];
// Either of the two, for a statement that is right alone or inside a caller's transaction.
export type Executor = Db | Tx;
// Task starts and endings, the worker's hottest statements, prepared and pipelined (core/db/prepared-statements.ts):
// the starts of one turn as one statement (core/db/statements/start-tasks.ts), and the endings' group transactions
// (core/tasks/finish-batch.ts), whose endings send their statements side by side on the transaction's connection.
// Nothing else: a BEGIN that fills its pipeline fails (docs/workarounds.md #7), which these two never let happen.
export type TransitionsDb = Drizzle & Kind<"transitions">;
// The admission's direct connections (plain postgres.js, pipelining, its own parsers: drizzle changes those of the
// client it is given, so raw statements and drizzle never share one): the admission batch's one statement, and the
// pipelined transactions that judge a batch (core/db/pipelined-transaction.ts); and the LISTEN of the API keys'
// cache (core/auth/principal-cache.ts), which postgres.js opens on a connection of its own.
export type DirectSql = postgres.Sql & Kind<"direct">;
// The connection of one admission transaction on `direct`, reserved for it: the reads that judge a batch run here.
export type AdmissionTx = postgres.ReservedSql & Kind<"admission transaction">;
// Where the admission's statements are written: the batch's one statement on `direct`, or inside its transaction.
export type AdmissionSql = DirectSql | AdmissionTx;
// The hottest reads, one prepared statement each (parsed and planned once per connection), raw postgres.js without
// pipelining. Never a transaction here: postgres.js 3.4 fails `begin` with UNSAFE_TRANSACTION when it is pipelined
// behind a prepared statement on a client whose pipelining is off (core/db/prepared-statements.ts), which is why
// drizzle's pool sends its statements unprepared.
export type ReadSql = postgres.Sql & Kind<"reads">;
// Beside these, single connections with one job each and no statements of these kinds: graphile-worker's pool
// (node-postgres, opened per runner by worker/job-pool.ts), the task changes' LISTEN (core/tasks/
// task-changes.ts), the sessions that mark a worker alive (core/jobs/lost-workers.ts, core/ops/worker-heartbeat.ts)
// and the migrations' (core/db/migrate.ts).

export interface Database {
  db: Db;
  direct: DirectSql;
  reads: ReadSql;
  transitions: TransitionsDb;
  close(): Promise<void>;
}

// The constructors of the kinds: the only places a client becomes one. Each refuses a client built against its
// kind's rule about pipelining.
export function sharedPool(client: postgres.Sql): Db {
  if (!pipeliningOff(client)) throw new Error("the shared pool must not pipeline (core/db/driver-options.ts)");
  const pool: Drizzle = drizzle(client, { schema });
  return pool as Db;
}

export function transitionsDb(client: postgres.Sql): TransitionsDb {
  const prepared: Drizzle = drizzle(preparingStatements(client), { schema });
  return prepared as TransitionsDb;
}

export function admissionConnections(client: postgres.Sql): DirectSql {
  if (pipeliningOff(client)) throw new Error("admission's connections pipeline its transactions; this client does not");
  return client as DirectSql;
}

export function preparedReads(client: postgres.Sql): ReadSql {
  if (!pipeliningOff(client)) throw new Error("the prepared reads must not pipeline (core/db/driver-options.ts)");
  return client as ReadSql;
}

const pipeliningOff = (client: postgres.Sql) => (client.options as { max_pipeline?: number }).max_pipeline === 1;

// Connections open on first use, so a process that never reads or admits this way holds none of them.
const DIRECT_CONNECTIONS = 2;
const READ_CONNECTIONS = 4;
const TRANSITION_CONNECTIONS = 2;

// `query_timeout` (seconds) is added to postgres.js by patches/postgres+3.4.9.patch: a connection that has waited
// this long without a byte of answer is ended and its queries fail as a lost connection, which every caller
// already handles (a request answers a retryable error, a job is retried). Without it, one answer lost in a
// database restart stalls whatever waits for it, and an admission or a rate-limit count stalls every later one.
export function queryTimeout(queryTimeoutMs: number): postgres.Options<Record<string, postgres.PostgresType>> {
  return { query_timeout: queryTimeoutMs / 1000 } as postgres.Options<Record<string, postgres.PostgresType>>;
}

export function connectDatabase(url: string, options: { max?: number; queryTimeoutMs: number }): Database {
  const common = { ...queryTimeout(options.queryTimeoutMs), onnotice: () => {} };
  const client = postgres(url, { ...noPipelining, ...common, max: options.max ?? 10 });
  const direct = postgres(url, { ...common, max: DIRECT_CONNECTIONS });
  const reads = postgres(url, { ...noPipelining, ...common, max: READ_CONNECTIONS });
  const transitionsClient = postgres(url, { ...common, max: TRANSITION_CONNECTIONS });
  return {
    db: sharedPool(client),
    direct: admissionConnections(direct),
    reads: preparedReads(reads),
    transitions: transitionsDb(transitionsClient),
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), direct.end({ timeout: 5 }), reads.end({ timeout: 5 }), transitionsClient.end({ timeout: 5 })]);
    },
  };
}
