import { createCore, loadConfig, migrateDatabase } from "../core/index.js";
import { startMcpHttpServer } from "./http.js";

// The MCP server process (Streamable HTTP): as many as load needs, all on one database, like the REST server.
const config = loadConfig();
await migrateDatabase(config.databaseUrl);
const core = createCore(config);
const server = await startMcpHttpServer(core);
console.log(`MCP server listening at ${server.url}`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void server
      .close()
      .then(() => core.close())
      .finally(() => process.exit(0));
  });
}
