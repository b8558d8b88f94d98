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

// An upload quota on the command line: a whole number (0 forbids uploads), or `default`.
function parseQuota(flag: string, text: string | undefined, max: number): number | null | undefined {
  if (text === undefined) return undefined;
  if (text === "default") return null;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > max) throw new Error(`--${flag} must be a whole number from 0 to ${max} or "default"`);
  return value;
}

export interface LimitsOptions {
  "per-key"?: string;
  "per-tenant"?: string;
  "upload-max-bytes"?: string;
  "upload-max-count"?: string;
}

// `svc tenant limits TENANT_ID [--per-key N|default] [--per-tenant N|default] [--upload-max-bytes N|default]
// [--upload-max-count N|default]`: shows a tenant's rate limits and upload quota, and sets its own values when
// given. They apply to every server process from the tenant's next request.
export async function runLimitsCommand(core: Core, tenantId: string | undefined, options: LimitsOptions) {
  if (!tenantId) throw new Error("TENANT_ID is required");
  const change = {
    perKey: parseBudget("per-key", options["per-key"]),
    perTenant: parseBudget("per-tenant", options["per-tenant"]),
    uploadMaxBytes: parseQuota("upload-max-bytes", options["upload-max-bytes"], Number.MAX_SAFE_INTEGER),
    uploadMaxCount: parseQuota("upload-max-count", options["upload-max-count"], 2_147_483_647),
  };
  const defaults = core.config.rateLimits;
  const limits = Object.values(change).every((value) => value === undefined)
    ? await readTenantRateLimits(core.db, defaults, tenantId)
    : await setTenantRateLimits(core.db, defaults, tenantId, change);
  return {
    tenant_id: limits.tenantId,
    window_seconds: limits.windowSeconds,
    per_key: limits.perKey,
    per_key_source: limits.custom.perKey ? "tenant" : "default",
    per_tenant: limits.perTenant,
    per_tenant_source: limits.custom.perTenant ? "tenant" : "default",
    upload_max_bytes: limits.upload.maxBytes,
    upload_max_bytes_source: limits.custom.uploadMaxBytes ? "tenant" : "default",
    upload_max_count: limits.upload.maxCount,
    upload_max_count_source: limits.custom.uploadMaxCount ? "tenant" : "default",
  };
}
