import type { ServiceMetrics } from "../observability/service-metrics.js";
import { ProviderFailure, type ProviderAdapter } from "./types.js";

type Operation = "submit" | "poll" | "cancel";

// Every vendor call timed and its failures counted by the public code they mapped to, around the adapter rather
// than inside each vendor folder, so a new family is measured without anyone remembering to.
export function observeAdapter(adapter: ProviderAdapter, metrics: ServiceMetrics): ProviderAdapter {
  const family = adapter.family;
  async function timed<T>(operation: Operation, call: () => Promise<T>): Promise<T> {
    const stop = metrics.providerRequestDuration.startTimer({ family, operation });
    try {
      const result = await call();
      stop({ outcome: "ok" });
      return result;
    } catch (error) {
      // Only a vendor's mapped answer counts against it; a call abandoned because the worker is stopping does not.
      if (error instanceof ProviderFailure) {
        stop({ outcome: "failed" });
        metrics.providerFailures.inc({ family, code: error.code });
      }
      throw error;
    }
  }
  const observed: ProviderAdapter = {
    family,
    supportsCancel: adapter.supportsCancel,
    submit: (request, signal) => timed("submit", () => adapter.submit(request, signal)),
  };
  const { poll, cancel } = adapter;
  if (poll) observed.poll = (ref, request, signal) => timed("poll", () => poll.call(adapter, ref, request, signal));
  if (cancel) observed.cancel = (ref, request, signal) => timed("cancel", () => cancel.call(adapter, ref, request, signal));
  return observed;
}
