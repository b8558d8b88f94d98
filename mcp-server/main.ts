import { createCore, createLogger, handleTermination, limitHeapGrowth, loadConfig, migrateDatabase } from "../core/index.js";
import { startMcpHttpServer } from "./http.js";

// The MCP server process (Streamable HTTP): as many as load needs, all on one database, like the REST server.
limitHeapGrowth();
const config = loadConfig();
const log = createLogger(config, { process: "mcp" });
await migrateDatabase(config.databaseUrl);
const core = createCore(config, { logger: log });
const server = await startMcpHttpServer(core);
log.info({ url: server.url }, "MCP server listening");

// SIGTERM: stop accepting, let in-flight requests finish within SHUTDOWN_TIMEOUT_MS, then cut the rest.
handleTermination(log, config.shutdownTimeoutMs, {
  drain: () => server.drain(),
  abandon: () => server.close(),
  release: () => core.close(),
});
