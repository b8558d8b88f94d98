import type { FastifyInstance } from "fastify";
import type { HttpMetrics } from "../core/index.js";

export interface Readiness {
  ready: boolean;
}

// What every process answers its orchestrator and Prometheus:
//   /healthz  the process runs
//   /readyz   the process can do its work (what that takes is the process's own: the database, its migrations,
//             a worker taking jobs…), 503 otherwise, with the checks that say why
//   /metrics  Prometheus text
export function registerProbes(app: FastifyInstance, metrics: HttpMetrics, readiness: () => Promise<Readiness>): void {
  app.get("/healthz", async () => ({ ok: true }));
  app.get("/readyz", async (_request, reply) => {
    const answer = await readiness();
    return reply.status(answer.ready ? 200 : 503).send(answer);
  });
  app.get("/metrics", async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
}
