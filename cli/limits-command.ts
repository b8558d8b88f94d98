import { isValidBudget, MAX_REQUESTS_PER_WINDOW, readTenantRateLimits, setTenantRateLimits, type Core } from "../core/index.js";

// A budget on the command line: a whole number of requests per window, or `default` to drop the tenant's own.
function parseBudget(flag: string, text: string | undefined): number | null | undefined {
  if (text === undefined) return undefined;
  if (text === "default") return null;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !isValidBudget(value)) {
    throw new Error(`--${flag} must be a whole number of requests per window (1 to ${MAX_REQUESTS_PER_WINDOW}) or "default"`);
  }
  return value;
}

// `svc tenant limits TENANT_ID [--per-key N|default] [--per-tenant N|default]`: shows a tenant's rate limits, and
// sets its own budgets when given. They apply to every server process from the tenant's next request.
export async function runLimitsCommand(core: Core, tenantId: string | undefined, options: { "per-key"?: string; "per-tenant"?: string }) {
  if (!tenantId) throw new Error("TENANT_ID is required");
  const change = { perKey: parseBudget("per-key", options["per-key"]), perTenant: parseBudget("per-tenant", options["per-tenant"]) };
  const defaults = core.config.rateLimits;
  const limits =
    change.perKey === undefined && change.perTenant === undefined
      ? await readTenantRateLimits(core.db, defaults, tenantId)
      : await setTenantRateLimits(core.db, defaults, tenantId, change);
  return {
    tenant_id: limits.tenantId,
    window_seconds: limits.windowSeconds,
    per_key: limits.perKey,
    per_key_source: limits.custom.perKey ? "tenant" : "default",
    per_tenant: limits.perTenant,
    per_tenant_source: limits.custom.perTenant ? "tenant" : "default",
  };
}
