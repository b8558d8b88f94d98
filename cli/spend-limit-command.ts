import { spendLimitHelp } from "./commands.js";
import { formatCredits, parseCredits, setSpendLimit, SPEND_PERIODS, type Core, type SpendPeriod, type SpendScope } from "../core/index.js";

// A spend limit on the command line: `<credits>/<day|month>`, or `none` to remove it.
export function parseSpendLimit(text: string): { period: SpendPeriod; limit: bigint } | null {
  if (text === "none") return null;
  const [amount, period, extra] = text.split("/");
  let limit: bigint | undefined;
  try {
    limit = amount === undefined ? undefined : parseCredits(amount);
  } catch {
    limit = undefined;
  }
  if (limit === undefined || extra !== undefined || !SPEND_PERIODS.includes(period as SpendPeriod)) {
    throw new Error(`a spend limit must be ${spendLimitHelp}; got "${text}"`);
  }
  return { period: period as SpendPeriod, limit };
}

// `svc tenant spend-limit TENANT_ID LIMIT` and `svc key spend-limit KEY_ID LIMIT`: sets or removes a spend limit,
// which applies from the next admission.
export async function runSpendLimitCommand(core: Core, scope: SpendScope, owner: string, text: string) {
  const change = parseSpendLimit(text);
  if (!(await setSpendLimit(core.db, scope, owner, change))) throw new Error(`no ${scope === "key" ? "API key" : "tenant"} ${owner}`);
  return { scope, owner, spend_limit: change === null ? null : { period: change.period, limit_credits: formatCredits(change.limit) } };
}

export function describeSpendLimit(result: Awaited<ReturnType<typeof runSpendLimitCommand>>): string {
  const who = `${result.scope === "key" ? "key" : "tenant"} ${result.owner}`;
  return result.spend_limit === null ? `${who}: no spend limit` : `${who}: at most ${result.spend_limit.limit_credits} credits per ${result.spend_limit.period} (UTC)`;
}
