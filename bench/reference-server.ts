import postgres from "postgres";
import type { Side } from "./paired.js";
import { freePort, launch, waitForHttp } from "./processes.js";
import { SETTINGS, SPEECH_BODY } from "./settings.js";

// The bare Fastify server (bench/bare-server.ts) the HTTP figures are held against, with the table it writes
// and reads. It runs beside the service for the whole HTTP part of the run.

const READ_ROWS = 1000;

export interface ReferenceServer {
  // POST /rows: one INSERT of the speech body, as the create load sends it.
  insertSide: Side;
  // GET /rows/:id over rows the insert load wrote.
  getSide(): Promise<Side>;
  close(): Promise<void>;
}

export async function startReferenceServer(databaseUrl: string): Promise<ReferenceServer> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await sql`create table bench_rows (id bigserial primary key, body jsonb not null, created_at timestamptz not null default now())`;
  const port = await freePort();
  const server = launch("reference server", "bench/bare-server.ts", { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    await server.stop();
    await sql`drop table if exists bench_rows`;
    await sql.end({ timeout: 5 });
  };
  try {
    await waitForHttp(`${url}/healthz`, server);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    insertSide: {
      pid: server.pid,
      load: {
        url,
        connections: SETTINGS.connections,
        expectStatus: 201,
        next: () => ({ method: "POST", path: "/rows", headers: { "content-type": "application/json" }, body: SPEECH_BODY }),
      },
    },
    async getSide() {
      const ids = (await sql<{ id: string }[]>`select id::text from bench_rows order by bench_rows.id limit ${READ_ROWS}`).map((r) => r.id);
      if (ids.length === 0) throw new Error("the reference table is empty: run the insert load first");
      let i = 0;
      return {
        pid: server.pid,
        load: {
          url,
          connections: SETTINGS.connections,
          expectStatus: 200,
          next: () => ({ method: "GET", path: `/rows/${ids[i++ % ids.length]}`, headers: {} }),
        },
      };
    },
    close,
  };
}
