const MIN_POLL_DELAY_MS = 1_000;
const MAX_POLL_DELAY_MS = 15_000;

// When to look at a vendor job again: a quarter of its age, between 1 and 15 seconds. A short job is seen soon
// after it finishes; a long one (video can queue for many minutes) costs a poll every 15 seconds at most.
export function pollDelayMs(submittedAt: Date | undefined, now: Date = new Date()): number {
  if (submittedAt === undefined || Number.isNaN(submittedAt.getTime())) return MIN_POLL_DELAY_MS;
  const age = Math.max(0, now.getTime() - submittedAt.getTime());
  return Math.min(MAX_POLL_DELAY_MS, Math.max(MIN_POLL_DELAY_MS, Math.round(age / 4)));
}
