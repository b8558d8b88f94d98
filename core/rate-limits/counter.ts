import type { RateLimitSubject, WindowCount } from "./decision.js";

// The configured budgets, requests per fixed window, for tenants without budgets of their own.
export interface RateLimitDefaults {
  windowSeconds: number;
  perKey: number;
  perTenant: number;
}

// Where the counters live: Postgres (the default; nothing more to run) or Redis (RATE_LIMIT_STORE=redis).
export interface RateLimitCounter {
  count(subject: RateLimitSubject): Promise<WindowCount>;
  close(): Promise<void>;
}
