import type { FastifyInstance } from "fastify";
import { checkReadiness, type Core } from "../../core/index.js";

// Liveness answers while the process runs. Readiness needs the database, every migration, and a worker taking
// jobs: a replica that admits work nobody would run is not ready. While the server drains at shutdown Fastify
// answers 503 to everything, readiness included. /metrics is Prometheus text for this replica.
export function registerHealthRoutes(app: FastifyInstance, core: Core): void {
  app.get("/healthz", async () => ({ ok: true }));
  app.get("/readyz", async (_request, reply) => {
    const readiness = await checkReadiness(core, { workers: true });
    return reply.status(readiness.ready ? 200 : 503).send(readiness);
  });
  app.get("/metrics", async (_request, reply) =>
    reply.type(core.metrics.registry.contentType).send(await core.metrics.registry.metrics()),
  );
}
