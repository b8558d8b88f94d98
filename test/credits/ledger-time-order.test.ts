import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCredits } from "../../core/index.js";
import { grantCredits } from "../../core/credits/ledger.js";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";

// GET /v1/credits lists the ledger newest first, and its times say so: created_at never rises along the listing,
// paged as a caller pages it. A ledger row used to be stamped with its transaction's start (now()) and the listing
// ordered by id, so a transaction begun before another but writing after it put a higher id on an older time and
// the listing came out of time order (issue 36: entry 8 newer than entry 7 among the entries of 110 speech tasks).

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: true, credits: "100" });
});
afterAll(async () => h?.close());

interface Entry {
  id: string;
  kind: string;
  note: string | null;
  created_at: string;
}

async function wholeListing(limit: number): Promise<Entry[]> {
  const entries: Entry[] = [];
  let cursor: string | null = null;
  do {
    const read = await h.request("GET", `/v1/credits?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(read.status).toBe(200);
    entries.push(...(read.body.entries as Entry[]));
    cursor = read.body.has_more ? read.body.next_cursor : null;
  } while (cursor);
  return entries;
}

function expectNewestFirst(entries: Entry[]): void {
  for (let i = 1; i < entries.length; i++) {
    const [newer, older] = [entries[i - 1]!, entries[i]!];
    expect(Date.parse(newer.created_at) >= Date.parse(older.created_at), `${newer.id} at ${newer.created_at} listed before ${older.id} at ${older.created_at}`).toBe(true);
  }
  expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
}

describe("GET /v1/credits entries in time order", () => {
  it("lists the entries of 55 speech tasks (110 entries) by time, paged", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) {
      const created = await h.request("POST", "/v1/audio/speech", {
        idempotencyKey: `ledger-time-${i}`,
        body: { voice: "en_female_aria", input: `Entry ${i} of the ledger.`, model: "auto" },
      });
      expect(created.status).toBe(202);
      ids.push(created.body.task_id);
    }
    for (const id of ids) expect((await waitForTask(h, id, ["succeeded", "failed", "canceled"])).status).toBe("succeeded");

    const entries = await wholeListing(25);
    expect(entries.filter((e) => e.kind === "hold")).toHaveLength(55);
    expect(entries.filter((e) => e.kind === "capture")).toHaveLength(55);
    expectNewestFirst(entries);
  }, 300_000);

  it("lists an entry written late by a transaction begun early after the entries written before it", async () => {
    let writeLate!: () => void;
    const otherWritten = new Promise<void>((resolve) => (writeLate = resolve));
    let begun!: () => void;
    const transactionBegun = new Promise<void>((resolve) => (begun = resolve));
    const early = h.core.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      begun();
      await otherWritten;
      await grantCredits(tx, h.tenantId, parseCredits("0.000001"), "begun first, written last");
    });
    await transactionBegun;
    await h.core.db.transaction((tx) => grantCredits(tx, h.tenantId, parseCredits("0.000001"), "begun second, written first"));
    writeLate();
    await early;

    const entries = await wholeListing(7);
    expect(entries[0]!.note).toBe("begun first, written last");
    expect(entries[1]!.note).toBe("begun second, written first");
    expect(entries).toHaveLength(2 * 55 + 3);
    expectNewestFirst(entries);
  });
});
