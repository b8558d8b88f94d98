import { ownerKey, SPEND_PERIODS, type SpendPeriod, type SpendScope, type SpendState } from "../spend-states.js";
import type { AdmissionTx } from "../client.js";
import { bigintOfText, text, UnexpectedRow } from "./row-parsing.js";

const STATEMENT = "read-spend";
const SCOPES: readonly SpendScope[] = ["key", "tenant"];

// Inside an admission transaction: the spend limits of these tenants and keys with what was held under each in its
// current period, read without a lock like the balances (the write's check is what guarantees the limit), by
// ownerKey.
export async function readSpend(sql: AdmissionTx, tenantIds: readonly string[], keyIds: readonly string[], now: Date): Promise<Map<string, SpendState>> {
  const rows = await sql<Record<string, unknown>[]>`
    select l.scope, l.owner, l.period, l.limit::text, coalesce(c.spent, 0)::text as spent
      from spend_limits l
      left join spend_counters c
        on c.scope = l.scope and c.owner = l.owner
       and c.period_start = date_trunc(l.period, ${now.toISOString()}::timestamptz at time zone 'UTC') at time zone 'UTC'
     where (l.scope = 'tenant' and l.owner = any(${[...tenantIds]}::text[]))
        or (l.scope = 'key' and l.owner = any(${[...keyIds]}::text[]))`;
  return new Map(
    rows.map((row) => {
      const state: SpendState = {
        scope: oneOf(row, "scope", SCOPES),
        owner: text(row, "owner", STATEMENT),
        period: oneOf(row, "period", SPEND_PERIODS),
        limit: bigintOfText(row, "limit", STATEMENT),
        spent: bigintOfText(row, "spent", STATEMENT),
      };
      return [ownerKey(state.scope, state.owner), state];
    }),
  );
}

function oneOf<T extends SpendScope | SpendPeriod>(row: Record<string, unknown>, column: string, values: readonly T[]): T {
  const value = text(row, column, STATEMENT);
  const found = values.find((candidate) => candidate === value);
  if (found === undefined) throw new UnexpectedRow(STATEMENT, column, values.join(" or "), value);
  return found;
}
