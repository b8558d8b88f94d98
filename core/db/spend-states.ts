// A spend limit (core/credits/spend-limits.ts) as the statements of core/db/statements/ read it, with what has been
// held under it in a period: its scopes and periods are the values spend_limits' checks allow
// (core/db/schema/spend-limits.ts).

export type SpendScope = "key" | "tenant";
export type SpendPeriod = "day" | "month";
export const SPEND_PERIODS: readonly SpendPeriod[] = ["day", "month"];

export interface SpendLimit {
  scope: SpendScope;
  owner: string;
  period: SpendPeriod;
  limit: bigint;
}

// A spend counter's identity in a batch's reading.
export const ownerKey = (scope: SpendScope, owner: string) => `${scope}\u0000${owner}`;

export interface SpendState extends SpendLimit {
  spent: bigint;
}
