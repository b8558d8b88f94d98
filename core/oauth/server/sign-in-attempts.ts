import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";

// Failed sign-ins on the authorization server's page, counted per client address in the rate limits' counter
// table (core/db/schema/rate-limits.ts) under buckets of their own, so every replica counts them together. After
// FAILED_SIGN_INS in a window of WINDOW_SECONDS (opened by the first failure after the last window closed), the
// address may not try again until the window closes. An API key is 190 random bits, so guessing is hopeless
// anyway; the limit keeps a script from turning the page into a way to load the database, and does not stop a
// person who mistypes a few times, nor anyone signing in successfully.
export const FAILED_SIGN_INS = 10;
export const SIGN_IN_WINDOW_SECONDS = 60;

const window = sql`make_interval(secs => ${SIGN_IN_WINDOW_SECONDS})`;
const bucket = (address: string) => `oauth_sign_in_failures:${address}`;

// Seconds until the address may try again, or null when it may now. Concurrent attempts may each pass before
// either failure is counted: the limit is approximate by a request or two.
export async function signInRetryAfter(db: Db, address: string): Promise<number | null> {
  const rows = await db.execute<{ hits: number; reset_seconds: number }>(sql`
    select hits, ceil(extract(epoch from window_start + ${window} - now()))::int as reset_seconds
      from rate_limit_counters where bucket = ${bucket(address)} and window_start > now() - ${window}`);
  const row = rows[0];
  return row && row.hits >= FAILED_SIGN_INS ? Math.max(1, row.reset_seconds) : null;
}

export async function countFailedSignIn(db: Db, address: string): Promise<void> {
  await db.execute(sql`
    insert into rate_limit_counters as counter (bucket, window_start, hits)
    values (${bucket(address)}, now(), 1)
    on conflict (bucket) do update set
      hits = case when counter.window_start > now() - ${window} then counter.hits + 1 else 1 end,
      window_start = case when counter.window_start > now() - ${window} then counter.window_start else now() end`);
}
