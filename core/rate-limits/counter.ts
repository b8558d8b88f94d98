import type { RateLimitSubject, WindowCount } from "./decision.js";

// The configured budgets, requests per fixed window, for tenants without budgets of their own.
export interface RateLimitDefaults {
  windowSeconds: number;
  perKey: number;
  perTenant: number;
}

// The budgets that apply to a tenant's requests: its own where it has them, else the defaults.
export interface TenantBudgets {
  perKey: number;
  perTenant: number;
}

// What a server process asks of the limiter for each authenticated request (core/rate-limits/synced-counts.ts).
export interface RateLimitCounter {
  count(subject: RateLimitSubject): Promise<WindowCount>;
  close(): Promise<void>;
}

// A bucket's count in the shared store after an exchange: its hits in the current window, every process's, and
// how long that window still runs.
export interface StoredCount {
  hits: number;
  resetMs: number;
}

export interface StoreAnswer {
  buckets: ReadonlyMap<string, StoredCount>;
  // The budgets that apply to each tenant asked about.
  budgets: ReadonlyMap<string, TenantBudgets>;
}

// Where the counts every process shares live: Postgres (the default; nothing more to run) or Redis
// (RATE_LIMIT_STORE=redis). A window opens with a bucket's first hit after the previous one ended.
export interface BucketStore {
  // Adds hits to buckets (a bucket's window opening or renewing as needed) and answers their totals.
  add(increments: ReadonlyMap<string, number>, tenantIds: readonly string[]): Promise<StoreAnswer>;
  close(): Promise<void>;
}
