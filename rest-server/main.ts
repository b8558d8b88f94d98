import { createCore, createLogger, handleTermination, limitHeapGrowth, loadConfig, migrateDatabase } from "../core/index.js";
import { buildRestApp } from "./app.js";

// The REST server process: as many of these as load needs, all on one database.
limitHeapGrowth();
const config = loadConfig();
const log = createLogger(config, { process: "rest" });
await migrateDatabase(config.databaseUrl);
const core = createCore(config, { logger: log });
const app = buildRestApp(core);
await app.listen({ host: config.host, port: config.port });

// SIGTERM: stop accepting connections, answer 503 on kept-alive ones, let in-flight requests finish within
// SHUTDOWN_TIMEOUT_MS, then cut whatever is left.
handleTermination(log, config.shutdownTimeoutMs, {
  drain: () => app.drain(),
  abandon: async () => app.server.closeAllConnections(),
  release: () => core.close(),
});
