import { sql } from "drizzle-orm";
import { displayPrefix, parseApiKey } from "../../auth/api-key-format.js";
import type { Db } from "../../db/client.js";

// Failed sign-ins on the authorization server's page, counted in the rate limits' counter table
// (core/db/schema/rate-limits.ts) under buckets of their own, so every replica counts them together, each in a
// window of SIGN_IN_WINDOW_SECONDS opened by the first failure after the last one closed. Two counts, so that a
// person behind an address others share (an office, a carrier's NAT) is not locked out by someone else's guesses:
// - per source address and key prefix guessed (`sk_<region>_` and the first four characters, what the console and
//   the logs show of a key, no secret): after FAILED_SIGN_INS failures, keys of that prefix from that address are
//   refused unchecked until the window closes. That stops guessing at one known key; a person whose key has another
//   prefix (all but one in 14 million) signs in as before.
// - per source address: after FAILED_SIGN_INS_PER_ADDRESS failures (a script, not a person mistyping), everything
//   from the address is refused unchecked until the window closes. That bounds what guessing at random keys costs
//   the database, and the prefix buckets an address can open.
// An API key is 190 random bits: guessing is hopeless anyway; these bounds keep a script from turning the page into
// a way to load the database, and say when to retry. docs/decisions.md, "Sign-in throttling".
export const FAILED_SIGN_INS = 10;
export const FAILED_SIGN_INS_PER_ADDRESS = 100;
export const SIGN_IN_WINDOW_SECONDS = 60;

const window = sql`make_interval(secs => ${SIGN_IN_WINDOW_SECONDS})`;

function buckets(source: string, key: string): { address: string; prefix: string | null } {
  const address = `oauth_sign_in_failures:${source}`;
  return { address, prefix: parseApiKey(key) ? `${address}:${displayPrefix(key)}` : null };
}

export interface SignInThrottle {
  // What is refused: every key from the address, or keys of this prefix from it.
  scope: "address" | "prefix";
  retryAfterSeconds: number;
}

// Whether a sign-in with this key from this source is refused before the key is checked, and for how long.
// Concurrent attempts may each pass before either failure is counted: the bounds are approximate by a request or two.
export async function signInThrottle(db: Db, source: string, key: string): Promise<SignInThrottle | null> {
  const { address, prefix } = buckets(source, key);
  const rows = await db.execute<{ bucket: string; hits: number; reset_seconds: number }>(sql`
    select bucket, hits, ceil(extract(epoch from window_start + ${window} - now()))::int as reset_seconds
      from rate_limit_counters
     where bucket in (${address}, ${prefix ?? address}) and window_start > now() - ${window}`);
  for (const row of rows) {
    const scope = row.bucket === address ? "address" : "prefix";
    if (row.hits >= (scope === "address" ? FAILED_SIGN_INS_PER_ADDRESS : FAILED_SIGN_INS)) return { scope, retryAfterSeconds: Math.max(1, row.reset_seconds) };
  }
  return null;
}

export async function countFailedSignIn(db: Db, source: string, key: string): Promise<void> {
  const { address, prefix } = buckets(source, key);
  const values = prefix ? sql`(${address}, now(), 1), (${prefix}, now(), 1)` : sql`(${address}, now(), 1)`;
  await db.execute(sql`
    insert into rate_limit_counters as counter (bucket, window_start, hits)
    values ${values}
    on conflict (bucket) do update set
      hits = case when counter.window_start > now() - ${window} then counter.hits + 1 else 1 end,
      window_start = case when counter.window_start > now() - ${window} then counter.window_start else now() end`);
}
