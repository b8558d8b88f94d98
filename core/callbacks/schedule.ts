// SPEC.md's retry schedule: after a failed attempt the next one comes 1 minute, 5 minutes, 30 minutes, 2 hours,
// then 12 hours later; the sixth attempt is the last. A "minute" is configurable so tests run it in milliseconds.
export const RETRY_DELAYS_MINUTES = [1, 5, 30, 120, 720] as const;
export const SCHEDULED_ATTEMPTS = RETRY_DELAYS_MINUTES.length + 1;

// When to try again after attempt `attempt` (1-based) of the scheduled series failed; null after the last one.
export function nextAttemptAt(attempt: number, failedAt: Date, minuteMs: number): Date | null {
  const delay = RETRY_DELAYS_MINUTES[attempt - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay * minuteMs);
}
