import { randomBytes } from "node:crypto";
import { emulatorProviderEnv } from "../core/config.js";

export interface ServiceAddresses {
  databaseUrl: string;
  artifactDir: string;
  restPort: number;
  emulatorPort: number;
  workerPort: number;
  workerConcurrency: number;
}

// The environment the bench and the soak start the service's processes with: fresh secrets, the vendors at the
// emulator, quiet logs, and rate limits far above any load (the limiter still counts every request, as deployed).
// Each adds what its own run needs.
export function serviceEnvironment(at: ServiceAddresses): Record<string, string | undefined> {
  return {
    ...process.env,
    DATABASE_URL: at.databaseUrl,
    ARTIFACT_URL_SECRET: randomBytes(32).toString("base64url"),
    CALLBACK_SECRET_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ARTIFACT_DIR: at.artifactDir,
    PORT: String(at.restPort),
    WORKER_PORT: String(at.workerPort),
    EMULATOR_PORT: String(at.emulatorPort),
    WORKER_CONCURRENCY: String(at.workerConcurrency),
    // Request logs would measure the log sink as much as the service.
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_KEY: String(2 ** 31 - 1),
    RATE_LIMIT_PER_TENANT: String(2 ** 31 - 1),
    ...emulatorProviderEnv(`http://127.0.0.1:${at.emulatorPort}`),
  };
}
