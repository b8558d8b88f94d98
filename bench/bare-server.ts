import Fastify from "fastify";
import postgres from "postgres";
import { noPipelining } from "../core/db/driver-options.js";

// The reference the service is held against: a bare Fastify server whose routes do one statement each, on
// the same driver settings as the service (postgres.js, pool of 10, no pipelining). POST /rows inserts its
// body as one row; GET /rows/:id reads one row by primary key; POST /jobs adds its body as a graphile-worker
// `noop` job (the admission-to-running reference behind HTTP).

const port = Number(process.env.PORT);
const sql = postgres(process.env.DATABASE_URL as string, { ...noPipelining, max: 10, onnotice: () => {} });

const app = Fastify({ logger: false });
app.post("/rows", async (request, reply) => {
  const rows = await sql`insert into bench_rows (body) values (${sql.json(request.body as postgres.JSONValue)}) returning id`;
  return reply.status(201).send({ id: rows[0]?.id });
});
app.get<{ Params: { id: string } }>("/rows/:id", async (request, reply) => {
  const rows = await sql`select id, body, created_at from bench_rows where id = ${request.params.id}`;
  if (rows.length === 0) return reply.status(404).send({ error: "not found" });
  return rows[0];
});
app.post("/jobs", async (request, reply) => {
  await sql`select graphile_worker.add_job('noop', ${sql.json(request.body as postgres.JSONValue)}::json)`;
  return reply.status(202).send({ ok: true });
});
app.get("/healthz", () => ({ ok: true }));

await app.listen({ host: "127.0.0.1", port });
process.once("SIGTERM", () => {
  void app
    .close()
    .then(() => sql.end({ timeout: 5 }))
    .finally(() => process.exit(0));
});
