import { run, type Runner, type RunnerOptions } from "graphile-worker";
import pg from "pg";
import type { Core } from "../core/index.js";

// graphile-worker's runner on a pool of our own, which keeps its error listeners for as long as it lives. Given
// only a connection string, graphile-worker makes the pool itself, and its release removes the pool's error
// listeners before it ends the pool, without waiting: a connection that fails meanwhile (a runner that stopped
// because the database restarted, whose idle connections the restart then cuts) emits an error nobody listens to,
// which ends the worker process (seen in test/faults/database-restart.test.ts: "Connection terminated
// unexpectedly" from pg-pool). This pool is ended once its runner has ended, or at once when it fails to start.
export async function runOnOwnPool(core: Core, options: Omit<RunnerOptions, "connectionString" | "pgPool" | "maxPoolSize">, maxPoolSize: number): Promise<Runner> {
  const pool = new pg.Pool({ connectionString: core.config.databaseUrl, max: maxPoolSize });
  const logged = (error: Error) => core.log.warn({ err: error }, "a job runner's database connection failed");
  pool.on("error", logged);
  pool.on("connect", (client) => client.on("error", logged));
  const end = () => pool.end().catch(logged);
  let runner: Runner;
  try {
    runner = await run({ ...options, pgPool: pool });
  } catch (error) {
    await end();
    throw error;
  }
  runner.promise.then(end, end);
  return runner;
}
