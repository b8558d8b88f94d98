import type { Config, VendorFamily } from "../config.js";
import type { ProviderAdapter } from "./types.js";
import { vendorAAdapter } from "./vendorA/adapter.js";

const FACTORIES: Partial<Record<VendorFamily, (endpoint: NonNullable<Config["providers"][VendorFamily]>) => ProviderAdapter>> = {
  vendorA: vendorAAdapter,
};

// The only place that knows the vendor folders. A family is live when it is configured and has an adapter.
export class ProviderRegistry {
  private readonly adapters = new Map<VendorFamily, ProviderAdapter>();

  constructor(config: Config) {
    for (const [family, endpoint] of Object.entries(config.providers) as [VendorFamily, NonNullable<Config["providers"][VendorFamily]>][]) {
      const factory = FACTORIES[family];
      if (factory) this.adapters.set(family, factory(endpoint));
    }
  }

  isLive(family: VendorFamily): boolean {
    return this.adapters.has(family);
  }

  get(family: VendorFamily): ProviderAdapter | undefined {
    return this.adapters.get(family);
  }
}
