import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema/index.js";

export type Db = PostgresJsDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  close(): Promise<void>;
}

export function connectDatabase(url: string, options: { max?: number } = {}): Database {
  // Pipelining several queries on one connection degrades badly under load with postgres.js 3.4; the option
  // exists at run time but not in its type declarations.
  const client = postgres(url, {
    max: options.max ?? 10,
    max_pipeline: 1,
    onnotice: () => {},
  } as postgres.Options<Record<string, postgres.PostgresType>>);
  const db = drizzle(client, { schema });
  return {
    db,
    close: () => client.end({ timeout: 5 }),
  };
}
