import type postgres from "postgres";

// Pipelining many callers' queries on one connection degrades badly under load with postgres.js 3.4; the option
// exists at run time but not in its type declarations. The service's pools and the benchmark's bare reference
// server use the same setting.
export const noPipelining = { max_pipeline: 1 } as postgres.Options<Record<string, postgres.PostgresType>>;
