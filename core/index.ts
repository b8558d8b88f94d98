// The one door through which servers and the worker reach the core.
export { loadConfig, ConfigError, type Config } from "./config.js";
export { createCore, type Core, type CoreOverrides } from "./runtime.js";
export { migrateDatabase } from "./db/migrate.js";
export { CAPABILITIES, findCapability } from "./capabilities/table.js";
export type { Capability } from "./capabilities/types.js";
export { authenticate, requireArea, type Principal } from "./auth/authenticate.js";
export { AREAS, isArea, type Area } from "./auth/areas.js";
export * as admin from "./auth/admin.js";
export { ServiceError, errorBody, ERROR_CATALOGUE, invalidRequest, failure, type ErrorCode } from "./errors/index.js";
export { createTask, type CreateContext } from "./tasks/create.js";
export { getTask, listTasksPage } from "./tasks/read.js";
export { cancelTask } from "./tasks/cancel.js";
export { executeTask } from "./tasks/execute.js";
export { sweepOverdueTasks } from "./tasks/sweep.js";
export { creditBalanceView } from "./credits/view.js";
export { formatCredits, parseCredits } from "./credits/money.js";
export { openSignedArtifact, listTaskAssets } from "./artifacts/read.js";
export { listVoices } from "./voices.js";
