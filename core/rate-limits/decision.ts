import { MAX_REQUESTS_PER_WINDOW } from "../config.js";
import { ServiceError } from "../errors/index.js";

export function isValidBudget(value: number): boolean {
  return Number.isInteger(value) && value > 0 && value <= MAX_REQUESTS_PER_WINDOW;
}

// Who a request is counted against: its credential (an API key, or an access token's subject within its tenant)
// and its tenant. Every server process counts in the same shared store.
export interface RateLimitSubject {
  tenantId: string;
  credential: { kind: "api_key" | "access_token"; id: string };
}

// One budget as it stands after counting a request: how many requests its window allows, how many it has
// counted (this one included) and how long until its window ends. A window opens with the first request after
// the previous one ended, so budgets do not all renew at the same instant.
export interface BudgetCount {
  limit: number;
  hits: number;
  resetMs: number;
}

export interface WindowCount {
  credential: BudgetCount;
  tenant: BudgetCount;
  // Present when the shared store could not be reached and the count is this process's own (its failure).
  unshared?: unknown;
}

export type RateLimitScope = "api_key" | "tenant";

export interface RateLimitDecision {
  allowed: boolean;
  // The budget the headers describe: the exhausted one when refused, otherwise the one with less left.
  scope: RateLimitScope;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export function bucketsOf(subject: RateLimitSubject): { credential: string; tenant: string } {
  const credential =
    subject.credential.kind === "api_key" ? `key:${subject.credential.id}` : `token:${subject.tenantId}:${subject.credential.id}`;
  return { credential, tenant: `tenant:${subject.tenantId}` };
}

export function decide(count: WindowCount): RateLimitDecision {
  const tenant = { scope: "tenant" as const, ...count.tenant };
  const credential = { scope: "api_key" as const, ...count.credential };
  const left = (budget: BudgetCount) => Math.max(0, budget.limit - budget.hits);
  const exhausted = [tenant, credential].find((budget) => budget.hits > budget.limit);
  const reported = exhausted ?? (left(credential) <= left(tenant) ? credential : tenant);
  return {
    allowed: exhausted === undefined,
    scope: reported.scope,
    limit: reported.limit,
    remaining: left(reported),
    // Whole seconds, rounded up, and at least 1: a client that waits this long finds a new window.
    resetSeconds: Math.max(1, Math.ceil(reported.resetMs / 1000)),
  };
}

// X-RateLimit-Reset is in seconds from now (delta seconds, like Retry-After), not a Unix time: it needs no
// agreement between the client's clock and ours.
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(decision.resetSeconds),
  };
  if (!decision.allowed) headers["Retry-After"] = String(decision.resetSeconds);
  return headers;
}

export function rateLimitedError(decision: RateLimitDecision, windowSeconds: number): ServiceError {
  const whose = decision.scope === "tenant" ? "this account" : "this credential";
  return new ServiceError(
    "rate_limited",
    `Too many requests for ${whose}: at most ${decision.limit} per ${windowSeconds} s. Retry after ${decision.resetSeconds} s.`,
    {
      details: { scope: decision.scope, limit: decision.limit, window_seconds: windowSeconds, retry_after_seconds: decision.resetSeconds },
      headers: rateLimitHeaders(decision),
    },
  );
}
