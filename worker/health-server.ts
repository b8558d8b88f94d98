import type { AddressInfo } from "node:net";
import { checkReadiness, type CheckResult, type Core } from "../core/index.js";
import { createHttpFace } from "../http-face/face.js";

export interface HealthServer {
  url: string;
  close(): Promise<void>;
}

// The worker serves no API; its HTTP face is for the orchestrator and Prometheus only: /healthz, /readyz (the
// database answers, carries every migration, and this worker is taking jobs) and /metrics (the worker's jobs and
// vendor calls, and the shared database gauges).
export async function startHealthServer(core: Core, ownChecks: () => Record<string, CheckResult>): Promise<HealthServer> {
  const app = createHttpFace({
    log: core.log,
    metrics: core.metrics,
    readiness: () => checkReadiness(core, { workers: false, own: ownChecks() }),
  });
  await app.listen({ port: core.config.workerPort, host: core.config.workerHost });
  const address = app.server.address() as AddressInfo;
  return {
    url: `http://${core.config.workerHost}:${address.port}`,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
