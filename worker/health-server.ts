import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { checkReadiness, type CheckResult, type Core } from "../core/index.js";

export interface HealthServer {
  url: string;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { "content-type": contentType }).end(body);
}

// The worker serves no API; this small server is for the orchestrator and Prometheus only:
//   /healthz  the process runs
//   /readyz   the database answers, carries every migration, and this worker is taking jobs (503 otherwise)
//   /metrics  Prometheus text: the worker's jobs and vendor calls, and the shared database gauges
export async function startHealthServer(core: Core, ownChecks: () => Record<string, CheckResult>): Promise<HealthServer> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (request.method !== "GET") return send(response, 405, "application/json", JSON.stringify({ error: "only GET" }));
    if (path === "/healthz") return send(response, 200, "application/json", JSON.stringify({ ok: true }));
    if (path === "/readyz") {
      void checkReadiness(core, { workers: false, own: ownChecks() }).then((readiness) =>
        send(response, readiness.ready ? 200 : 503, "application/json", JSON.stringify(readiness)),
      );
      return;
    }
    if (path === "/metrics") {
      void core.metrics.registry.metrics().then(
        (text) => send(response, 200, core.metrics.registry.contentType, text),
        (error: unknown) => send(response, 500, "text/plain", `metrics failed: ${(error as Error).message}`),
      );
      return;
    }
    send(response, 404, "application/json", JSON.stringify({ error: `no route ${path}; try /healthz, /readyz or /metrics` }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(core.config.workerPort, core.config.workerHost, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${core.config.workerHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
