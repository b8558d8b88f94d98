import { sql, type SQL } from "drizzle-orm";
import type { RunningService } from "./service.js";

// The tenants a phase's tasks belong to: one, as most phases use, or several sharing the worker, each task given
// to the next in turn.

export interface Tenant {
  tenantId: string;
  apiKey: string;
}

export async function newTenants(service: RunningService, count: number, credits: string): Promise<Tenant[]> {
  const tenants: Tenant[] = [];
  for (let i = 0; i < count; i++) tenants.push(await service.newTenant(credits));
  return tenants;
}

// `tenant_id in (…)` of a query on tasks.
export function ofTenants(tenants: readonly Tenant[]): SQL {
  const ids = sql.join(
    tenants.map((tenant) => sql`${tenant.tenantId}`),
    sql`, `,
  );
  return sql`tenant_id in (${ids})`;
}

// The tenant of the n-th task.
export function inTurn<T>(tenants: readonly T[], n: number): T {
  return tenants[n % tenants.length] as T;
}
