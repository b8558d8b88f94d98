import { createCore, loadConfig, migrateDatabase } from "../core/index.js";
import { startWorker } from "./runner.js";

const config = loadConfig();
await migrateDatabase(config.databaseUrl);
const core = createCore(config);
const runner = await startWorker(core, { handleSignals: true });
console.log(`worker running with concurrency ${config.workerConcurrency}`);
await runner.promise;
await core.close();
