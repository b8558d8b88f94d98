// Runs `run` for 0 … count-1 with at most `lanes` of them in flight, and settles every one (a failure does not
// stop the others): media work per request or job (downloads, ffprobe processes, spool files) stays bounded
// however many inputs a body names.
export async function settleAtMost<T>(lanes: number, count: number, run: (i: number) => Promise<T>): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await run(i).then(
        (value) => ({ status: "fulfilled", value }) as const,
        (reason: unknown) => ({ status: "rejected", reason }) as const,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, count) }, lane));
  return results;
}
