import type { Config } from "../config.js";
import type { ServiceMetrics } from "../observability/service-metrics.js";
import { observeAdapter } from "./provider-metrics.js";
import { isVendorFamily, type VendorFamily } from "../vendor-families.js";
import type { FamilyCheck } from "./family-check.js";
import type { ProviderAdapter } from "./types.js";
import { vendorAAdapter } from "./vendorA/adapter.js";
import { vendorACheck } from "./vendorA/check.js";
import { vendorBAdapter } from "./vendorB/adapter.js";
import { vendorBCheck } from "./vendorB/check.js";
import { vendorCAdapter } from "./vendorC/adapter.js";
import { vendorCCheck } from "./vendorC/check.js";
import { vendorDAdapter } from "./vendorD/adapter.js";
import { vendorDCheck } from "./vendorD/check.js";
import { vendorEAdapter } from "./vendorE/adapter.js";
import { vendorECheck } from "./vendorE/check.js";
import { vendorFAdapter } from "./vendorF/adapter.js";
import { vendorFCheck } from "./vendorF/check.js";
import { vendorGAdapter } from "./vendorG/adapter.js";
import { vendorGCheck } from "./vendorG/check.js";

const FACTORIES: Partial<Record<VendorFamily, (endpoint: NonNullable<Config["providers"][VendorFamily]>) => ProviderAdapter>> = {
  vendorA: vendorAAdapter,
  vendorB: vendorBAdapter,
  vendorC: vendorCAdapter,
  vendorD: vendorDAdapter,
  vendorE: vendorEAdapter,
  vendorF: vendorFAdapter,
  vendorG: vendorGAdapter,
};

// Each family's `svc vendors check` call, declared in its folder beside its adapter.
const CHECKS: Record<VendorFamily, FamilyCheck> = {
  vendorA: vendorACheck,
  vendorB: vendorBCheck,
  vendorC: vendorCCheck,
  vendorD: vendorDCheck,
  vendorE: vendorECheck,
  vendorF: vendorFCheck,
  vendorG: vendorGCheck,
};

export function familyCheck(family: VendorFamily): FamilyCheck {
  return CHECKS[family];
}

// The only place that knows the vendor folders. A family is live when it is configured (base URL and key);
// a live family without an adapter fails its tasks with model_unavailable and a full refund.
export class ProviderRegistry {
  private readonly adapters = new Map<VendorFamily, ProviderAdapter>();
  private readonly configured: ReadonlySet<VendorFamily>;

  constructor(config: Config, metrics: ServiceMetrics) {
    this.configured = new Set(Object.keys(config.providers) as VendorFamily[]);
    for (const [family, endpoint] of Object.entries(config.providers) as [VendorFamily, NonNullable<Config["providers"][VendorFamily]>][]) {
      const factory = FACTORIES[family];
      if (factory) this.adapters.set(family, observeAdapter(factory(endpoint), metrics));
    }
  }

  isLive(family: VendorFamily): boolean {
    return this.configured.has(family);
  }

  // The adapter of a family as a task row names it; none for a family this build does not know.
  get(family: string): ProviderAdapter | undefined {
    return isVendorFamily(family) ? this.adapters.get(family) : undefined;
  }

  // The families this process can run tasks of.
  withAdapters(): VendorFamily[] {
    return [...this.adapters.keys()];
  }
}
