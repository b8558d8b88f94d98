// A sweep's deletions over a backlog of any size: one bounded statement after another, each its own short
// transaction, until one comes back short (nothing more is due) or `most` have run (one run of the sweep stays
// short; the next run, a minute later, goes on). Answers how many rows went in all.
export async function inBoundedBatches(batch: () => Promise<number>, size: number, most: number): Promise<number> {
  let total = 0;
  for (let run = 0; run < most; run++) {
    const count = await batch();
    total += count;
    if (count < size) break;
  }
  return total;
}
