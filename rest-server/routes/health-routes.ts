import type { FastifyInstance } from "fastify";
import { sql } from "drizzle-orm";
import type { Core } from "../../core/index.js";

// Liveness answers while the process runs; readiness also needs the database.
export function registerHealthRoutes(app: FastifyInstance, core: Core): void {
  app.get("/healthz", async () => ({ ok: true }));
  app.get("/readyz", async (_request, reply) => {
    try {
      await core.db.execute(sql`select 1`);
      return { ok: true };
    } catch (error) {
      return reply.status(503).send({ ok: false, reason: `database unreachable: ${(error as Error).message}` });
    }
  });
}
