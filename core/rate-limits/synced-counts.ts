import type { BucketStore, RateLimitCounter, RateLimitDefaults, StoredCount, TenantBudgets } from "./counter.js";
import { bucketsOf, type RateLimitSubject, type WindowCount } from "./decision.js";

// Requests are counted in this process and the counts exchanged with the shared store (Postgres or Redis) at most
// every `syncMs`, instead of one statement per request:
// - A request whose buckets this process has exchanged within the last `syncMs` (and whose window still runs) is
//   counted here and answered at once: its hit is the store's total at that exchange plus the hits counted here
//   since. It reaches the store with the next exchange, which runs within syncMs / 2.
// - Any other request (a bucket not seen, or seen too long ago, or a window that has ended) waits for an exchange,
//   which starts at the end of the current turn of the event loop with everything counted meanwhile, and is
//   answered from the store's totals.
// - A bucket hit within the last KEEP_FRESH_MS goes with every exchange even when it has nothing to send: the store
//   answers its total without adding to it (nor opening a window), so a client that asks every few seconds (a poll,
//   an agent's next step) is answered at once instead of waiting a round trip to the store each time. While such
//   buckets exist the exchanges keep running every syncMs / 2; at most MAX_KEPT_FRESH buckets go with one.
// The bounded overshoot: within one process counts are exact; what other processes allowed since this one's last
// exchange is unseen, so across processes a budget can be exceeded by at most the requests the other processes
// accept within syncMs. RATE_LIMIT_SYNC_MS=0 makes every request wait for an exchange (exact across processes, one
// statement per turn of the event loop). The hits of a failed exchange go with the next one.
// - An exchange that fails for an outage of the store (`isOutage`: a lost database connection, an unreachable
//   Redis) answers its requests from this process's own counts: the store's total at the last exchange, if its
//   window still runs, plus every hit counted here since, never fewer than what this process knows was counted; a
//   window ended or never seen opens here, and a tenant never answered for has the default budgets. The count says
//   so (`unshared`), for the limiter to log. A burst during an outage is limited as before, per process; the other
//   processes' hits since the last exchange are unseen, as they are between exchanges.

const MAX_BUCKETS = 100_000;
// Long enough to cover the pace a host is told to poll at (at most 10 s, mcp-server/tasks-extension/service-tasks.ts).
const KEEP_FRESH_MS = 15_000;
const MAX_KEPT_FRESH = 1_000;

interface BucketState {
  // The store's total at the last exchange, this process's hits sent until then included.
  shared: number;
  // Hits in the exchange that is running, and hits counted here since.
  sending: number;
  unsent: number;
  // This process's clock.
  syncedAt: number;
  windowEndsAt: number;
  // When this process last counted a hit in it (this process's clock), and whose bucket it is.
  hitAt: number;
  tenantId: string | null;
}

interface Waiting {
  tenantId: string;
  names: { credential: string; tenant: string };
  // Which of its bucket's hits in the exchange this request's are (1-based).
  positions: { credential: number; tenant: number };
  resolve(count: WindowCount): void;
  reject(error: unknown): void;
}

export function syncedCounter(
  store: BucketStore,
  syncMs: number,
  defaults: RateLimitDefaults,
  isOutage: (error: unknown) => boolean,
): RateLimitCounter {
  const buckets = new Map<string, BucketState>();
  const budgets = new Map<string, TenantBudgets>();
  let tenantsCounted = new Set<string>();
  let waiting: Waiting[] = [];
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let soon = false;
  let closed = false;

  const stateOf = (bucket: string): BucketState => {
    let state = buckets.get(bucket);
    if (!state) {
      state = { shared: 0, sending: 0, unsent: 0, syncedAt: 0, windowEndsAt: 0, hitAt: 0, tenantId: null };
      buckets.set(bucket, state);
    }
    return state;
  };
  const fresh = (state: BucketState | undefined, now: number) =>
    state !== undefined && now - state.syncedAt < syncMs && now < state.windowEndsAt;
  // A bucket with nothing to send that a client may soon hit again, in a window that still runs: kept fresh.
  const keptFresh = (state: BucketState, now: number) =>
    syncMs > 0 && state.unsent === 0 && now - state.hitAt < KEEP_FRESH_MS && now < state.windowEndsAt && state.syncedAt > 0;
  const noteHit = (state: BucketState, tenantId: string, now: number) => {
    state.hitAt = now;
    state.tenantId = tenantId;
  };

  function schedule(delayMs: number): void {
    if (delayMs === 0) {
      if (soon) return;
      soon = true;
      setImmediate(() => {
        soon = false;
        void exchange();
      });
      return;
    }
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      void exchange();
    }, delayMs);
    timer.unref();
  }

  async function exchange(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    const increments = new Map<string, number>();
    const startedAt = Date.now();
    let kept = 0;
    for (const [bucket, state] of buckets) {
      if (state.unsent === 0) {
        if (kept >= MAX_KEPT_FRESH || !keptFresh(state, startedAt)) continue;
        kept++;
        if (state.tenantId !== null) tenantsCounted.add(state.tenantId);
      }
      increments.set(bucket, state.unsent);
      state.sending = state.unsent;
      state.unsent = 0;
    }
    if (increments.size === 0) return;
    const answering = waiting;
    waiting = [];
    const tenantIds = [...tenantsCounted];
    tenantsCounted = new Set();
    const fail = (error: unknown) => {
      // The buckets must meet the store again before they are counted here without waiting. Hits counted since
      // stay for the next exchange, whose waiting requests know their place among them; this exchange's join them.
      const now = Date.now();
      for (const bucket of increments.keys()) {
        const state = stateOf(bucket);
        state.unsent += state.sending;
        state.sending = 0;
        state.syncedAt = 0;
      }
      if (!isOutage(error)) {
        for (const tenantId of tenantIds) budgets.delete(tenantId);
        for (const request of answering) request.reject(error);
        return;
      }
      // Positions count the hits since this exchange began to be collected, and the hits it carried from failed
      // exchanges come after them: a request's count is taken as if the bucket's last waiting request were its
      // last hit, which puts every hit carried before it, never fewer. A window that has ended (or was never
      // seen) opens with this exchange's first waiting hit in the bucket: `shared` takes the hits before it off.
      const spread = new Map<string, { first: number; last: number }>();
      for (const request of answering) {
        for (const [kind, bucket] of Object.entries(request.names) as ["credential" | "tenant", string][]) {
          const position = request.positions[kind];
          const seen = spread.get(bucket);
          spread.set(bucket, { first: Math.min(seen?.first ?? position, position), last: Math.max(seen?.last ?? position, position) });
        }
      }
      const carriedBefore = (bucket: string) => (increments.get(bucket) ?? 0) - (spread.get(bucket)?.last ?? 0);
      for (const [bucket, { first }] of spread) {
        const state = stateOf(bucket);
        if (now < state.windowEndsAt) continue;
        state.shared = 1 - (carriedBefore(bucket) + first);
        state.windowEndsAt = now + defaults.windowSeconds * 1000;
      }
      for (const request of answering) {
        const budget = budgets.get(request.tenantId) ?? { perKey: defaults.perKey, perTenant: defaults.perTenant };
        const hitOf = (bucket: string, position: number) => {
          const state = stateOf(bucket);
          return { hits: state.shared + carriedBefore(bucket) + position, resetMs: state.windowEndsAt - now };
        };
        request.resolve({
          credential: { limit: budget.perKey, ...hitOf(request.names.credential, request.positions.credential) },
          tenant: { limit: budget.perTenant, ...hitOf(request.names.tenant, request.positions.tenant) },
          unshared: error,
        });
      }
    };
    running = store.add(increments, tenantIds).then((answer) => {
      const countOf = (bucket: string): StoredCount => {
        const count = answer.buckets.get(bucket);
        if (!count) throw new Error(`the rate-limit store did not count ${bucket}`);
        return count;
      };
      try {
        const now = Date.now();
        for (const [tenantId, budget] of answer.budgets) budgets.set(tenantId, budget);
        for (const [bucket, added] of increments) {
          const state = stateOf(bucket);
          // A bucket kept fresh that the store no longer holds has no window running: its next hit waits.
          if (added === 0 && !answer.buckets.has(bucket)) {
            state.syncedAt = 0;
            continue;
          }
          const count = countOf(bucket);
          state.shared = count.hits;
          state.sending = 0;
          state.syncedAt = startedAt;
          state.windowEndsAt = now + count.resetMs;
        }
        for (const request of answering) {
          const budget = budgets.get(request.tenantId);
          if (!budget) throw new Error(`the rate-limit store did not answer the budgets of ${request.tenantId}`);
          // The store added this exchange's hits of a bucket one after another; this request's is at its position.
          const hitOf = (bucket: string, position: number) => {
            const count = countOf(bucket);
            return { hits: count.hits - (increments.get(bucket) ?? 0) + position, resetMs: count.resetMs };
          };
          request.resolve({
            credential: { limit: budget.perKey, ...hitOf(request.names.credential, request.positions.credential) },
            tenant: { limit: budget.perTenant, ...hitOf(request.names.tenant, request.positions.tenant) },
          });
        }
        forgetEnded(now);
      } catch (error) {
        fail(error);
      }
    }, fail);
    try {
      await running;
    } finally {
      running = null;
      if (again || waiting.length > 0) {
        again = false;
        schedule(0);
      } else if (syncMs > 0 && !closed) {
        // The buckets just exchanged are recent: the next exchange keeps them fresh, or finds nothing to do.
        schedule(Math.max(1, Math.floor(syncMs / 2)));
      }
    }
  }

  // Buckets whose window has ended and that have nothing to send are forgotten; the map never outgrows its bound.
  function forgetEnded(now: number): void {
    if (buckets.size < MAX_BUCKETS) return;
    for (const [bucket, state] of buckets) {
      if (now >= state.windowEndsAt && state.unsent === 0 && state.sending === 0) buckets.delete(bucket);
    }
    if (budgets.size > MAX_BUCKETS) budgets.clear();
  }

  return {
    count(subject: RateLimitSubject): Promise<WindowCount> {
      const now = Date.now();
      const names = bucketsOf(subject);
      const credential = buckets.get(names.credential);
      const tenant = buckets.get(names.tenant);
      const budget = budgets.get(subject.tenantId);
      tenantsCounted.add(subject.tenantId);
      if (budget && credential && tenant && fresh(credential, now) && fresh(tenant, now)) {
        credential.unsent++;
        tenant.unsent++;
        noteHit(credential, subject.tenantId, now);
        noteHit(tenant, subject.tenantId, now);
        schedule(Math.max(1, Math.floor(syncMs / 2)));
        const hit = (state: BucketState) => ({ hits: state.shared + state.sending + state.unsent, resetMs: state.windowEndsAt - now });
        return Promise.resolve({
          credential: { limit: budget.perKey, ...hit(credential) },
          tenant: { limit: budget.perTenant, ...hit(tenant) },
        });
      }
      return new Promise((resolve, reject) => {
        const credentialState = stateOf(names.credential);
        const tenantState = stateOf(names.tenant);
        credentialState.unsent++;
        tenantState.unsent++;
        noteHit(credentialState, subject.tenantId, now);
        noteHit(tenantState, subject.tenantId, now);
        waiting.push({
          tenantId: subject.tenantId,
          names,
          positions: { credential: credentialState.unsent, tenant: tenantState.unsent },
          resolve,
          reject,
        });
        schedule(0);
      });
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
      await exchange();
      await store.close();
    },
  };
}
