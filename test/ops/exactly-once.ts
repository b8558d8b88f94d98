import postgres from "postgres";
import type { ReceivedRequest } from "../callbacks/receiver.js";

// What "completed exactly once" means, read from the database and the callback receiver: per task one hold and
// one settlement in the ledger, and one delivered callback (one request, one event id).
export async function ledgerKindsByTask(databaseUrl: string, taskIds: string[]): Promise<Map<string, string[]>> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ task_id: string; kind: string }[]>`
      select task_id, kind from credit_ledger where task_id = any(${taskIds}) order by id`;
    const byTask = new Map<string, string[]>(taskIds.map((id) => [id, []]));
    for (const row of rows) byTask.get(row.task_id)?.push(row.kind);
    return byTask;
  } finally {
    await sql.end();
  }
}

export function deliveriesByTask(requests: ReceivedRequest[]): Map<string, { count: number; eventIds: Set<string> }> {
  const byTask = new Map<string, { count: number; eventIds: Set<string> }>();
  for (const request of requests) {
    const taskId = String(request.headers["x-task-id"]);
    const entry = byTask.get(taskId) ?? { count: 0, eventIds: new Set<string>() };
    entry.count++;
    entry.eventIds.add(String(request.body?.event_id));
    byTask.set(taskId, entry);
  }
  return byTask;
}
