import { Counter, Histogram, type Registry } from "prom-client";
import { defineHttpMetrics, processRegistry, type HttpMetrics } from "./http-metrics.js";

// The counters and histograms of one process. Counters several processes increment (admissions on every REST
// replica, finishes on every worker) are per process; Prometheus sums them across instances. Gauges read from
// Postgres are added by `registerDatabaseGauges`.
export interface ServiceMetrics extends HttpMetrics {
  tasksAdmitted: Counter<"capability" | "model">;
  tasksFinished: Counter<"capability" | "model" | "status" | "error_code">;
  providerRequestDuration: Histogram<"family" | "operation" | "outcome">;
  providerFailures: Counter<"family" | "code">;
  catalogGaps: Counter<"family" | "model">;
  callbackDeliveries: Counter<"outcome">;
  slotDeferrals: Counter<"job">;
  spendLimitsReached: Counter<"scope" | "period">;
  jobDuration: Histogram<"job" | "outcome">;
}

export function createServiceMetrics(): ServiceMetrics {
  const registry: Registry = processRegistry();
  return {
    registry,
    observe: defineHttpMetrics(registry),
    tasksAdmitted: new Counter({
      name: "svc_tasks_admitted_total",
      help: "Tasks admitted (202, queued), by capability and resolved model; replays are not counted",
      labelNames: ["capability", "model"] as const,
      registers: [registry],
    }),
    tasksFinished: new Counter({
      name: "svc_tasks_finished_total",
      help: "Tasks that reached a terminal status, by capability, resolved model, status and error code (empty on success)",
      labelNames: ["capability", "model", "status", "error_code"] as const,
      registers: [registry],
    }),
    providerRequestDuration: new Histogram({
      name: "svc_provider_request_duration_seconds",
      help: "Duration of one vendor call (submit, poll or cancel), by vendor family and outcome",
      labelNames: ["family", "operation", "outcome"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
    providerFailures: new Counter({
      name: "svc_provider_failures_total",
      help: "Vendor calls that failed, by vendor family and the public error code they mapped to",
      labelNames: ["family", "code"] as const,
      registers: [registry],
    }),
    catalogGaps: new Counter({
      name: "svc_catalog_gap_refusals_total",
      help: "Tasks a vendor refused for their parameters after admission: a limit the catalog does not know yet",
      labelNames: ["family", "model"] as const,
      registers: [registry],
    }),
    callbackDeliveries: new Counter({
      name: "svc_callback_deliveries_total",
      help: "Callback delivery attempts, by outcome: delivered, retrying (failed, another attempt scheduled) or failed (no more attempts)",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    slotDeferrals: new Counter({
      name: "svc_tenant_slot_deferrals_total",
      help: "Jobs put off and enqueued again for later, by job name: a callback delivery that found every delivery slot of its tenant taken, an execution whose waiting tasks were all held back by a running limit",
      labelNames: ["job"] as const,
      registers: [registry],
    }),
    spendLimitsReached: new Counter({
      name: "svc_spend_limits_reached_total",
      help: "Admissions refused because a spend limit would be passed, by the limit's scope (key or tenant) and period (day or month)",
      labelNames: ["scope", "period"] as const,
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: "svc_job_duration_seconds",
      help: "Time a worker spent on one job, by job name and outcome: ok, failed (retried by graphile-worker) or released (abandoned at shutdown)",
      labelNames: ["job", "outcome"] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
  };
}
