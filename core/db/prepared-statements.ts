import type postgres from "postgres";

// drizzle sends every statement through postgres.js' `unsafe` unprepared, and postgres.js sends an unprepared
// statement with parameters in two round trips: Parse and Describe first (to learn the parameters' types), then
// Bind and Execute once the answer is in; the connection takes nothing else meanwhile, so pipelining stops too.
// A prepared statement is described once per connection and then sent in one write with the statements around
// it. This client prepares every statement with parameters, also in the transactions and savepoints it opens.
// The statements drizzle builds are the code's own shapes (an `in` list's length at most varies with a batch's
// size), so each connection's cache of them stays small.
//
// Only for a client that pipelines (postgres.js' default `max_pipeline`): postgres.js 3.4 marks a connection as
// a transaction's only when its BEGIN is written with room left in the pipeline, and with `max_pipeline: 1` a
// BEGIN written behind a prepared statement leaves none, so the BEGIN's answer fails the transaction with
// UNSAFE_TRANSACTION (unprepared statements never let anything be written behind them). porsager/postgres#1189;
// docs/workarounds.md #7 says when this may go.
export function preparingStatements<T extends Record<string, postgres.PostgresType>>(sql: postgres.Sql<T>): postgres.Sql<T> {
  if ((sql.options as { max_pipeline?: number }).max_pipeline === 1) {
    throw new Error("prepared statements on a client without pipelining would fail its transactions (UNSAFE_TRANSACTION)");
  }
  return withPreparedStatements(sql);
}

function withPreparedStatements<T extends Record<string, postgres.PostgresType>>(sql: postgres.Sql<T>): postgres.Sql<T> {
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (query: string, parameters: unknown[] = [], options: postgres.UnsafeQueryOptions = {}) =>
          target.unsafe(query, parameters as postgres.ParameterOrJSON<never>[], { ...options, prepare: parameters.length > 0 || options.prepare === true });
      }
      if (property === "begin" || property === "savepoint") {
        const open = Reflect.get(target, property, receiver) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          const body = args.pop() as (inner: postgres.Sql<T>) => unknown;
          return open.call(target, ...args, (inner: postgres.Sql<T>) => body(withPreparedStatements(inner)));
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
