import { sql } from "drizzle-orm";
import { bearer } from "../phases/admission.js";
import type { Side } from "../paired.js";
import type { RunningService } from "../service.js";
import { SETTINGS } from "../settings.js";
import { GROWTH } from "./settings.js";

// The read loads on the measured tenant's seeded tasks, the same in both databases (the seed writes that tenant's
// tasks alike in each): GET of tasks drawn from its whole year, and GET /v1/tasks at its first page and at a page
// `depth` tasks deep, reached by following the list's own cursors.

export async function taskReadSide(service: RunningService, tenantId: string, apiKey: string): Promise<Side> {
  const rows = await service.core.db.execute<{ id: string }>(sql`
    select id from tasks where tenant_id = ${tenantId} and idempotency_key like 'seed-%' order by md5(id) limit ${GROWTH.readTasks}`);
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) throw new Error("the measured tenant has no seeded task");
  let i = 0;
  return {
    pid: service.rest.pid,
    core: service.core,
    load: {
      url: service.restUrl,
      connections: SETTINGS.connections,
      expectStatus: 200,
      next: () => ({ method: "GET", path: `/v1/tasks/${ids[i++ % ids.length]}`, headers: bearer(apiKey) }),
    },
  };
}

export const PAGE = 100;

async function cursorAt(service: RunningService, apiKey: string, depth: number): Promise<string> {
  let cursor: string | null = null;
  for (let seen = 0; seen < depth; seen += PAGE) {
    const query: string = cursor === null ? `limit=${PAGE}` : `limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`;
    const response = await fetch(`${service.restUrl}/v1/tasks?${query}`, { headers: bearer(apiKey) });
    const page = (await response.json()) as { next_cursor?: string | null };
    if (response.status !== 200 || !page.next_cursor) throw new Error(`listing ${depth} tasks deep: HTTP ${response.status}, no next page`);
    cursor = page.next_cursor;
  }
  return cursor as string;
}

export async function listSides(service: RunningService, apiKey: string, depth: number): Promise<{ first: Side; later: Side }> {
  const cursor = await cursorAt(service, apiKey, depth);
  const side = (path: string): Side => ({
    pid: service.rest.pid,
    core: service.core,
    load: { url: service.restUrl, connections: SETTINGS.connections, expectStatus: 200, next: () => ({ method: "GET", path, headers: bearer(apiKey) }) },
  });
  return { first: side("/v1/tasks"), later: side(`/v1/tasks?cursor=${encodeURIComponent(cursor)}`) };
}
