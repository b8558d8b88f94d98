import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, parseCredits } from "../../core/index.js";
import { startHarness, type Harness } from "../support/harness.js";

// GET /v1/credits lists the newest 50 ledger entries. Ids are numbers: past 99 a text order would put "99" before
// "120" and leave the newest entries out of the page.

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
});
