import type { Config } from "../config.js";
import { observeAdapter } from "../observability/provider-metrics.js";
import type { ServiceMetrics } from "../observability/service-metrics.js";
import { isVendorFamily, type VendorFamily } from "../vendor-families.js";
import type { ProviderAdapter } from "./types.js";
import { vendorAAdapter } from "./vendorA/adapter.js";
import { vendorBAdapter } from "./vendorB/adapter.js";
import { vendorCAdapter } from "./vendorC/adapter.js";
import { vendorDAdapter } from "./vendorD/adapter.js";
import { vendorEAdapter } from "./vendorE/adapter.js";
import { vendorFAdapter } from "./vendorF/adapter.js";
import { vendorGAdapter } from "./vendorG/adapter.js";

const FACTORIES: Partial<Record<VendorFamily, (endpoint: NonNullable<Config["providers"][VendorFamily]>) => ProviderAdapter>> = {
  vendorA: vendorAAdapter,
  vendorB: vendorBAdapter,
  vendorC: vendorCAdapter,
  vendorD: vendorDAdapter,
  vendorE: vendorEAdapter,
  vendorF: vendorFAdapter,
  vendorG: vendorGAdapter,
};

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
