import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";

// Issue 13, item 9: GET /v1/tasks ordered by id while docs/decisions.md says newest first by creation, and query
// refusals carried a `param` ("cursor", "/query/limit") that is no JSON Pointer into the body.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

async function createTask(key: string): Promise<string> {
  const created = await h.request("POST", "/v1/audio/speech", { idempotencyKey: key, body: { voice: "en_female_aria", input: "Hi." } });
  expect(created.status).toBe(202);
  return created.body.task_id;
}

async function allPages(limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await h.request("GET", `/v1/tasks?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(page.status).toBe(200);
    seen.push(...page.body.data.map((task: { task_id: string }) => task.task_id));
    cursor = page.body.next_cursor;
  } while (cursor);
  return seen;
}

describe("GET /v1/tasks", () => {
  it("lists newest first by created_at, ties broken by task id, and its cursors walk that order without gaps", async () => {
    const [a, b, c, d] = [await createTask("list-a"), await createTask("list-b"), await createTask("list-c"), await createTask("list-d")];
    // Two admitting processes whose clocks differ: ids no longer follow creation times. c and d share a timestamp.
    const at = (iso: string, id: string) => h.core.db.execute(sql`update tasks set created_at = ${iso}::timestamptz where id = ${id}`);
    await at("2026-01-01T00:00:03Z", a!);
    await at("2026-01-01T00:00:01Z", b!);
    await at("2026-01-01T00:00:02Z", c!);
    await at("2026-01-01T00:00:02Z", d!);
    const expected = [a!, d!, c!, b!];
    expect((await h.request("GET", "/v1/tasks?limit=10")).body.data.map((t: { task_id: string }) => t.task_id)).toEqual(expected);
    for (const limit of [1, 2, 3]) expect(await allPages(limit)).toEqual(expected);
  });

  it("still honours a cursor of the earlier form ({v: 1, before: <task id>})", async () => {
    const ids = await allPages(100);
    const legacy = Buffer.from(JSON.stringify({ v: 1, before: ids[0] })).toString("base64url");
    const page = await h.request("GET", `/v1/tasks?limit=100&cursor=${legacy}`);
    expect(page.status).toBe(200);
    expect(page.body.data.map((t: { task_id: string }) => t.task_id)).toEqual(ids.slice(1));
  });
});

describe("refusals of a query", () => {
  it.each(["/v1/tasks", "/v1/voices", "/v1/callback-signing-keys"])("%s: no body pointer, the parameter in details.errors[].loc", async (path) => {
    const limit = await h.request("GET", `${path}?limit=abc`);
    expect(limit.status).toBe(422);
    expect(limit.body.error.code).toBe("invalid_request");
    expect(limit.body.error).not.toHaveProperty("param");
    expect(limit.body.error.details.errors[0]).toEqual({ loc: ["query", "limit"], reason: expect.any(String) });
    expect(limit.body.error.message).toMatch(/^Query parameter limit /);

    const cursor = await h.request("GET", `${path}?cursor=nope`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.code).toBe("invalid_cursor");
    expect(cursor.body.error).not.toHaveProperty("param");
    expect(cursor.body.error.details.errors).toEqual([{ loc: ["query", "cursor"], reason: "is not a next_cursor of this list" }]);
  });
});
