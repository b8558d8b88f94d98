import { admin, setTenantRateLimits } from "../../core/index.js";
import type { Harness } from "../support/harness.js";

// A tenant of its own for each test, with its budgets set before its first request, and `keys` API keys.
export async function tenantWithLimits(h: Harness, limits: { perKey?: number; perTenant?: number }, keys = 1) {
  const first = await h.newTenant("10");
  const apiKeys = [first.apiKey];
  for (let i = 1; i < keys; i++) apiKeys.push((await admin.createApiKey(h.core.db, h.core.ids, h.core.config.region, first.tenantId)).key);
  await setTenantRateLimits(h.core.db, h.core.config.rateLimits, first.tenantId, limits);
  return { tenantId: first.tenantId, apiKey: first.apiKey, apiKeys };
}
