import { LIMIT_SCOPES, listRunningLimits, MAX_RUNNING_RANGE, setRunningLimit, WEIGHT_RANGE, type Core, type LimitScope, type RunningLimitView } from "../core/index.js";

// `svc running-limit set` and `show`: an operator's limits on running tasks and tenants' weights
// (core/tasks/running-limits.ts).

function bounded(text: string | undefined, what: string, { min: low, max: high }: { min: number; max: number }): number | null | undefined {
  if (text === undefined) return undefined;
  if (text === "none") return null;
  const value = Number(text);
  if (!Number.isInteger(value) || value < low || value > high) throw new Error(`${what} must be a whole number from ${low} to ${high}, or none; got "${text}"`);
  return value;
}

export async function runRunningLimitSet(core: Core, options: Record<string, string | true>) {
  const named = LIMIT_SCOPES.filter((scope) => typeof options[scope] === "string");
  if (named.length !== 1) throw new Error("name exactly one of --tenant TENANT_ID, --key KEY_ID or --family FAMILY");
  const scope = named[0] as LimitScope;
  const subject = options[scope] as string;
  const maxRunning = bounded(typeof options.max === "string" ? options.max : undefined, "--max", MAX_RUNNING_RANGE);
  const weight = bounded(typeof options.weight === "string" ? options.weight : undefined, "--weight", WEIGHT_RANGE);
  if (maxRunning === undefined && weight === undefined) throw new Error("give --max N (or none) and/or --weight W (or none)");
  if (weight !== undefined && scope !== "tenant") throw new Error("--weight is a tenant's: use it with --tenant");
  if (!(await setRunningLimit(core.db, scope, subject, { maxRunning, weight }))) {
    throw new Error(`no ${scope === "key" ? "API key" : scope === "family" ? "vendor family" : "tenant"} ${subject}`);
  }
  const view = (await listRunningLimits(core.db)).find((limit) => limit.scope === scope && limit.subject === subject);
  return view ?? { scope, subject, max_running: null, weight: null, running: 0, holding_workers: 0, queued: 0 };
}

export function describeRunningLimit(limit: RunningLimitView): string {
  const cap = limit.max_running === null ? "no running limit" : `at most ${limit.max_running} running`;
  const weight = limit.weight === null ? "" : `, weight ${limit.weight}`;
  return `${limit.scope} ${limit.subject}: ${cap}${weight} (now ${limit.running} running, ${limit.holding_workers} holding a worker, ${limit.queued} waiting)`;
}
