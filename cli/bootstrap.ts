import { admin, parseCredits, type Core } from "../core/index.js";

export const DEV_TENANT_CREDITS = "1000";

// First start on an empty database: one development tenant with credits and an API key.
export async function bootstrapDevTenant(core: Core): Promise<{ tenantId: string; key: string } | null> {
  if ((await admin.countTenants(core.db)) > 0) return null;
  const tenant = await admin.createTenant(core.db, core.ids, "development", parseCredits(DEV_TENANT_CREDITS));
  const key = await admin.createApiKey(core.db, core.ids, core.config.region, tenant.id, { name: "development" });
  return { tenantId: tenant.id, key: key.key };
}
