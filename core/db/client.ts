import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { noPipelining } from "./driver-options.js";
import { preparingStatements } from "./prepared-statements.js";
import * as schema from "./schema/index.js";

export type Db = PostgresJsDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;
// A plain postgres.js client (or one reserved connection of it); its parsers are postgres.js's own (drizzle changes
// those of the client it is given, so raw statements and drizzle never share one).
export type DirectSql = postgres.Sql;
// The connection of an admission transaction on `direct` (core/tasks/admission-batch.ts, core/db/
// pipelined-transaction.ts), where its statements are written: raw postgres.js, like DirectSql, inside the
// transaction.
export type AdmissionSql = postgres.Sql;

export interface Database {
  db: Db;
  // Admission batches: each a transaction that sends its statements back to back on its connection and waits
  // once per half (pipelining), which the shared pool must not do (see below).
  direct: DirectSql;
  // The hottest reads, one prepared statement each (parsed and planned once per connection). Never a transaction
  // here: postgres.js 3.4 fails `begin` with UNSAFE_TRANSACTION when it is pipelined behind a prepared statement
  // on a client whose pipelining is off (core/db/prepared-statements.ts), which is why drizzle's pool sends its
  // statements unprepared.
  reads: DirectSql;
  // Task starts and endings, the worker's hottest statements, prepared (core/db/prepared-statements.ts): the
  // starts of one turn as one statement (core/tasks/task-starts.ts), and the endings' group transactions, whose
  // endings send their statements side by side, pipelined on the transaction's connection, which the shared pool
  // must not do either.
  transitions: Db;
  close(): Promise<void>;
}

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
  const db = drizzle(client, { schema });
  return {
    db,
    direct,
    reads,
    transitions: drizzle(preparingStatements(transitionsClient), { schema }),
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), direct.end({ timeout: 5 }), reads.end({ timeout: 5 }), transitionsClient.end({ timeout: 5 })]);
    },
  };
}
