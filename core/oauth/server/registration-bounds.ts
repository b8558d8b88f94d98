import { sql } from "drizzle-orm";
import type { Config } from "../../config.js";
import { inBoundedBatches } from "../../db/bounded-batches.js";
import type { Db } from "../../db/client.js";

// Dynamic client registration (RFC 7591) is open to anyone, as MCP hosts need it to be: nothing to authenticate
// with before a client exists. What bounds it: registrations per source address in an hour, counted in the rate
// limits' counter table (core/db/schema/rate-limits.ts) so every replica counts them together; a cap on clients
// registered and never granted (no person has consented to them: a host registers right before opening the
// sign-in page, so such a client is either being signed in with now or abandoned); and a sweep that drops those
// older than their time to live. A granted client stays for as long as anything refers to it.

const REGISTRATION_WINDOW_SECONDS = 3600;
const bucket = (source: string) => `oauth_registrations:${source}`;

// How often each replica sweeps (core/oauth/server/storage.ts's expired rows and the stale clients here), and how
// much a sweep deletes at most: a backlog is worked off over several runs, never in one long statement.
export const OAUTH_SWEEP_INTERVAL_MS = 10 * 60_000;
const ROWS_PER_BATCH = 1_000;
const BATCHES_PER_SWEEP = 20;

// A refusal in RFC 6749 §5.2's shape (RFC 7591 §3.2.2 answers registration errors so), with when to come back.
export interface RegistrationRefusal {
  status: 429 | 503;
  retryAfterSeconds: number;
  body: { error: "temporarily_unavailable"; error_description: string };
}

// Counts this registration against its source and answers a refusal once the source is past its bound or the
// cap is reached; null lets it through. The source's count is one statement (an increment that returns the count),
// exact under concurrency; the cap is read, so concurrent registrations may pass it by a few.
export async function registrationRefusal(db: Db, config: Config, source: string): Promise<RegistrationRefusal | null> {
  const bounds = config.oauth.registration;
  const window = sql`make_interval(secs => ${REGISTRATION_WINDOW_SECONDS})`;
  const counted = await db.execute<{ hits: number; reset_seconds: number }>(sql`
    insert into rate_limit_counters as counter (bucket, window_start, hits)
    values (${bucket(source)}, now(), 1)
    on conflict (bucket) do update set
      hits = case when counter.window_start > now() - ${window} then counter.hits + 1 else 1 end,
      window_start = case when counter.window_start > now() - ${window} then counter.window_start else now() end
    returning hits, ceil(extract(epoch from window_start + ${window} - now()))::int as reset_seconds`);
  const fromSource = counted[0];
  if (fromSource && fromSource.hits > bounds.perSourcePerHour) {
    return {
      status: 429,
      retryAfterSeconds: Math.max(1, fromSource.reset_seconds),
      body: {
        error: "temporarily_unavailable",
        error_description: `At most ${bounds.perSourcePerHour} client registrations an hour from one address; retry in ${Math.max(1, fromSource.reset_seconds)} seconds.`,
      },
    };
  }
  // The oldest never-granted clients, up to the cap, through the partial index on their age: the count is bounded
  // by the cap, and the oldest tells when the sweep frees a place.
  const ungranted = await db.execute<{ clients: number; frees_in_seconds: number | null }>(sql`
    select count(*)::int as clients,
           ceil(extract(epoch from min(created_at) + make_interval(secs => ${bounds.ungrantedTtlSeconds}) - now()))::int as frees_in_seconds
      from (select created_at from oauth_records where kind = 'Client' and granted_at is null
             order by created_at limit ${bounds.ungrantedMax}) oldest`);
  const cap = ungranted[0];
  if (cap && cap.clients >= bounds.ungrantedMax) {
    const retryAfterSeconds = Math.max(0, cap.frees_in_seconds ?? 0) + Math.ceil(OAUTH_SWEEP_INTERVAL_MS / 1000);
    return {
      status: 503,
      retryAfterSeconds,
      body: {
        error: "temporarily_unavailable",
        error_description: `This server holds as many clients not yet signed in with as it keeps (${bounds.ungrantedMax}); retry in ${retryAfterSeconds} seconds.`,
      },
    };
  }
  return null;
}

// A client is granted once a person consents to it (the first grant saved for it, core/oauth/server/storage.ts).
export async function markClientGranted(db: Db, clientId: string): Promise<void> {
  await db.execute(sql`update oauth_records set granted_at = now() where kind = 'Client' and id = ${clientId} and granted_at is null`);
}

// One bounded delete of a sweep, answering how many rows went.
async function deleteSome(db: Db, statement: ReturnType<typeof sql>): Promise<number> {
  const rows = await db.execute<{ deleted: number }>(sql`with gone as (${statement} returning 1) select count(*)::int as deleted from gone`);
  return rows[0]?.deleted ?? 0;
}

// Drops the never-granted clients registered longer ago than their time to live, as of `now`, and the counters of
// the authorization server's windows long closed (registrations and failed sign-ins, one bucket per address, which
// would otherwise stay). Answers how many clients went.
export async function dropStaleClients(db: Db, config: Config, now: Date): Promise<number> {
  const before = new Date(now.getTime() - config.oauth.registration.ungrantedTtlSeconds * 1000).toISOString();
  const dropped = await inBoundedBatches(
    () =>
      deleteSome(
        db,
        sql`delete from oauth_records where kind = 'Client' and id = any(array(
              select id from oauth_records where kind = 'Client' and granted_at is null and created_at < ${before}
               order by created_at limit ${ROWS_PER_BATCH}))`,
      ),
    ROWS_PER_BATCH,
    BATCHES_PER_SWEEP,
  );
  const windowsBefore = new Date(now.getTime() - REGISTRATION_WINDOW_SECONDS * 1000).toISOString();
  await inBoundedBatches(
    () =>
      deleteSome(
        db,
        sql`delete from rate_limit_counters where bucket = any(array(
              select bucket from rate_limit_counters where left(bucket, 6) = 'oauth_' and window_start < ${windowsBefore} limit ${ROWS_PER_BATCH}))`,
      ),
    ROWS_PER_BATCH,
    BATCHES_PER_SWEEP,
  );
  return dropped;
}
