// Polls `check` until it gives a value (anything but undefined), and fails with `what` (read when it fails, if a
// function) after `timeoutMs`. A check that throws counts as "not yet" (a process still starting refuses
// connections); its last error is reported.
export async function eventually<T>(what: string | (() => string), timeoutMs: number, check: () => T | undefined | Promise<T | undefined>, intervalMs = 50): Promise<T> {
  const until = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const found = await check();
      if (found !== undefined) return found;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > until) throw new Error(`${typeof what === "function" ? what() : what} within ${timeoutMs} ms${lastError ? ` (last error: ${(lastError as Error).message})` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
