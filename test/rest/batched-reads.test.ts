import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";

// Reads of tasks that arrive together share one statement (core/db/batched-lookup.ts, core/tasks/task-reads.ts);
// each must still be answered its own task, and only if it is its tenant's. No worker: every task stays queued.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const speech = (apiKey: string, key: string, input: string) =>
  h.request("POST", "/v1/audio/speech", { body: { voice: "en_female_aria", input }, idempotencyKey: key, apiKey });

describe("task reads that arrive together", () => {
  it("answer each reader its own task, and another tenant's task as unknown, also when read in the same turn", async () => {
    const tenants = await Promise.all([h.newTenant("1"), h.newTenant("1")]);
    const created = await Promise.all(
      tenants.flatMap((tenant, t) =>
        Array.from({ length: 10 }, async (_, i) => {
          const response = await speech(tenant.apiKey, `read-${t}-${i}`, `words ${t} ${i}`);
          expect(response.status).toBe(202);
          return { tenant, taskId: response.body.task_id as string, input: `words ${t} ${i}` };
        }),
      ),
    );
    const reads = await Promise.all(
      created.flatMap((task) => {
        const other = tenants.find((tenant) => tenant !== task.tenant);
        return [
          h.request("GET", `/v1/tasks/${task.taskId}`, { apiKey: task.tenant.apiKey }).then((r) => ({ task, own: true, r })),
          h.request("GET", `/v1/tasks/${task.taskId}`, { apiKey: other?.apiKey }).then((r) => ({ task, own: false, r })),
        ];
      }),
    );
    for (const { task, own, r } of reads) {
      if (own) {
        expect(r.status).toBe(200);
        expect(r.body.task_id).toBe(task.taskId);
        expect(r.body.status).toBe("queued");
      } else {
        expect(r.status).toBe(404);
        expect(r.body.error.code).toBe("task_not_found");
      }
    }
  });
});
