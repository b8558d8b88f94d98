import { sql as drizzleSql } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import { ServiceError } from "../errors/index.js";
import type { SpendPeriod, SpendScope, SpendState } from "../db/spend-states.js";
import { formatCredits } from "./money.js";

// Spend limits: credits an API key or a whole tenant may hold per UTC day or month (docs/decisions.md, spend
// limits). An admission counts its holds against them in its own write statement; spend_counters' check refuses
// the statement that would pass a limit, so concurrent admissions never overshoot.

// The UTC start of the period holding `now`, and the start of the next one (when the limit resets).
export function periodStart(period: SpendPeriod, now: Date): Date {
  return period === "day"
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export function periodEnd(period: SpendPeriod, now: Date): Date {
  const start = periodStart(period, now);
  return period === "day"
    ? new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + 1))
    : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

// Whether `error` is a counter's limit check failing in an admission's write (another admission counted spend
// between the batch's read and its write).
export function isSpendLimitCheck(error: unknown): boolean {
  const failure = error as { code?: string; constraint_name?: string } | null;
  return failure?.code === "23514" && failure.constraint_name === "spend_counters_within_limit_check";
}

// Refused because a hold would pass a limit: insufficient_balance (402, not retryable), as a short balance is
// (docs/decisions.md says why not rate_limited); details name the limit and when it resets.
export function spendLimitReached(state: SpendState, required: bigint, now: Date): ServiceError {
  const remaining = state.limit > state.spent ? state.limit - state.spent : 0n;
  const resetsAt = periodEnd(state.period, now).toISOString();
  const whose = state.scope === "key" ? `API key ${state.owner}` : `tenant ${state.owner}`;
  const message =
    `This request needs ${formatCredits(required)} credits and the ${state.period === "day" ? "daily" : "monthly"} spend limit of ${whose} ` +
    `(${formatCredits(state.limit)} credits) has ${formatCredits(remaining)} left until ${resetsAt}; nothing was started or charged.`;
  return new ServiceError("insufficient_balance", message, {
    details: {
      required_credits: formatCredits(required),
      spend_limit: {
        scope: state.scope,
        owner: state.owner,
        period: state.period,
        limit_credits: formatCredits(state.limit),
        spent_credits: formatCredits(state.spent),
        remaining_credits: formatCredits(remaining),
        resets_at: resetsAt,
      },
    },
  });
}

// Sets (or, with null, removes) the limit of a key or a tenant. False when there is no such key or tenant.
export async function setSpendLimit(db: Executor, scope: SpendScope, owner: string, change: { period: SpendPeriod; limit: bigint } | null): Promise<boolean> {
  const found = await db.execute(
    scope === "key" ? drizzleSql`select tenant_id from api_keys where id = ${owner}` : drizzleSql`select id as tenant_id from tenants where id = ${owner}`,
  );
  if (found.length === 0) return false;
  if (change === null) {
    await db.execute(drizzleSql`delete from spend_limits where scope = ${scope} and owner = ${owner}`);
    return true;
  }
  const tenantId = (found[0] as { tenant_id: string }).tenant_id;
  await db.execute(drizzleSql`
    insert into spend_limits (scope, owner, tenant_id, period, "limit") values (${scope}, ${owner}, ${tenantId}, ${change.period}, ${change.limit})
    on conflict (scope, owner) do update set period = excluded.period, "limit" = excluded."limit", updated_at = now()`);
  return true;
}

// A tenant's limits (its own and its keys') with what each has held this period, for GET /v1/credits.
export async function tenantSpendLimits(db: Executor, tenantId: string, now: Date) {
  const rows = await db.execute<{ scope: SpendScope; owner: string; period: SpendPeriod; limit: string; spent: string }>(drizzleSql`
    select l.scope, l.owner, l.period, l.limit::text, coalesce(c.spent, 0)::text as spent
      from spend_limits l
      left join spend_counters c
        on c.scope = l.scope and c.owner = l.owner
       and c.period_start = date_trunc(l.period, ${now.toISOString()}::timestamptz at time zone 'UTC') at time zone 'UTC'
     where l.tenant_id = ${tenantId}
     order by l.scope desc, l.owner`);
  return rows.map((r) => ({
    scope: r.scope,
    owner: r.owner,
    period: r.period,
    limit_credits: formatCredits(BigInt(r.limit)),
    spent_credits: formatCredits(BigInt(r.spent)),
    resets_at: periodEnd(r.period, now).toISOString(),
  }));
}
