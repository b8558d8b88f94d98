import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

// Request rate and latency of one HTTP server, by route template (never the raw path: ids would make a series per
// task), method and status. Every process with a server defines these on its own registry.
export interface HttpMetrics {
  registry: Registry;
  observe(route: string, method: string, status: number, seconds: number): void;
}

export function defineHttpMetrics(registry: Registry): HttpMetrics["observe"] {
  const requests = new Counter({
    name: "svc_http_requests_total",
    help: "HTTP requests answered, by route template, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "svc_http_request_duration_seconds",
    help: "Time from receiving an HTTP request to answering it",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return (route, method, status, seconds) => {
    const labels = { route, method, status: String(status) };
    requests.inc(labels);
    duration.observe(labels, seconds);
  };
}

// A registry with the process's runtime metrics (CPU, memory, event loop lag, GC) under their usual names.
export function processRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

// What a process without a core needs (the emulator): runtime metrics and its requests.
export function createHttpMetrics(): HttpMetrics {
  const registry = processRegistry();
  return { registry, observe: defineHttpMetrics(registry) };
}

// Load-balancer probes and Prometheus scrapes: counted in the metrics, not logged line by line.
export const PROBE_PATHS: ReadonlySet<string> = new Set(["/healthz", "/readyz", "/metrics"]);

// Paths no route matched share one label value, so probing for random URLs cannot grow the series without bound.
export const UNMATCHED_ROUTE = "unmatched";
