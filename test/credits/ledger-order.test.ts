import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, parseCredits } from "../../core/index.js";
import { startHarness, type Harness } from "../support/harness.js";

// GET /v1/credits lists the newest 50 ledger entries, then older pages by cursor. Ids are numbers: past 99 a text
// order would put "99" before "120" and leave the newest entries out of the page.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false, credits: "1" });
});
afterAll(async () => h?.close());

describe("GET /v1/credits entries", () => {
  it("lists the newest 50 entries, newest first, past id 100", async () => {
    const grants = 120;
    for (let i = 1; i <= grants; i++) await admin.grantTenantCredits(h.core.db, h.tenantId, parseCredits("0.000001"), `grant ${i}`);

    const read = await h.request("GET", "/v1/credits");
    expect(read.status).toBe(200);
    const entries = read.body.entries as { id: string; note: string }[];
    expect(entries).toHaveLength(50);
    const ids = entries.map((e) => BigInt(e.id));
    for (let i = 1; i < ids.length; i++) expect(ids[i - 1]! > ids[i]!).toBe(true);
    expect(ids[0]! > 100n).toBe(true);
    expect(entries.map((e) => e.note)).toEqual(Array.from({ length: 50 }, (_, i) => `grant ${grants - i}`));
    expect(read.body.granted_credits).toBe("1.000120");
  });

  it("pages through the whole ledger by cursor, each entry once, and refuses a cursor of another list", async () => {
    const notes: string[] = [];
    let cursor: string | null = null;
    do {
      const read = await h.request("GET", `/v1/credits?limit=40${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(read.status).toBe(200);
      expect(read.body.entries.length).toBeLessThanOrEqual(40);
      notes.push(...read.body.entries.map((e: { note: string }) => e.note));
      cursor = read.body.has_more ? read.body.next_cursor : null;
      if (!read.body.has_more) expect(read.body.next_cursor).toBeNull();
    } while (cursor);
    // The harness's own grant of 1 credit, then the 120 above, newest first.
    expect(notes).toHaveLength(121);
    expect(notes.slice(0, 120)).toEqual(Array.from({ length: 120 }, (_, i) => `grant ${120 - i}`));

    const tasksCursor = Buffer.from(JSON.stringify({ v: 1, after: "task_x" })).toString("base64url");
    const foreign = await h.request("GET", `/v1/credits?cursor=${tasksCursor}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.code).toBe("invalid_cursor");
    expect((await h.request("GET", "/v1/credits?limit=101")).body.error.code).toBe("invalid_request");
  });
});
