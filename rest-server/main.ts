import { createCore, loadConfig, migrateDatabase } from "../core/index.js";
import { buildRestApp } from "./app.js";

// The REST server process: as many of these as load needs, all on one database.
const config = loadConfig();
await migrateDatabase(config.databaseUrl);
const core = createCore(config);
const app = buildRestApp(core, { logger: { level: config.logLevel } });
await app.listen({ host: config.host, port: config.port });

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void app
      .close()
      .then(() => core.close())
      .finally(() => process.exit(0));
  });
}
