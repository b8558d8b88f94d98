import postgres from "postgres";
import { sleep } from "../stats.js";
import type { Cluster } from "./cluster.js";
import type { Hosts } from "./hosts.js";
import type { Tenant } from "./clients.js";

// One fault about every `everyMs`, drawn at random, each logged with the time it was injected: a vendor failing
// its next calls (the emulator's scripted faults: 5xx, 429, a safety refusal, an answer that is not JSON, a call
// that hangs until the service's timeout), a worker killed with SIGKILL and started again a few seconds later,
// the REST server killed and started again, every database session of the run terminated, a tenant's callback
// receiver failing for a while.

export interface FaultLog {
  at: number;
  kind: "vendor" | "worker" | "rest" | "database" | "receiver";
  fault: string;
}

const VENDOR_FAULTS: readonly { family: string; kinds: readonly string[] }[] = [
  // vendorA serves speech, image understanding and the videos: faults at submission only (a hung video job would
  // stay running until its deadline, an hour).
  { family: "vendorA", kinds: ["http_500", "http_429", "safety", "malformed"] },
  { family: "vendorB", kinds: ["http_500", "http_429", "hang", "malformed"] },
  { family: "vendorE", kinds: ["http_500", "http_429", "safety", "hang"] },
];

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

async function vendorFault(cluster: Cluster): Promise<string> {
  const { family, kinds } = pick(VENDOR_FAULTS);
  const kind = pick(kinds);
  const times = 1 + Math.floor(Math.random() * 3);
  const response = await fetch(`${cluster.emulatorUrl}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ family, kind, times, ...(kind === "http_429" ? { retry_after_seconds: 1 } : {}) }),
  });
  if (response.status !== 201) throw new Error(`the emulator refused a fault: HTTP ${response.status}`);
  return `vendor ${family} ${kind} ×${times}`;
}

async function killWorker(cluster: Cluster): Promise<string> {
  const slots = cluster.workers().flatMap((worker, slot) => (worker ? [slot] : []));
  if (slots.length === 0) return "no worker to kill";
  const slot = pick(slots);
  await cluster.killWorker(slot);
  const downMs = 2000 + Math.floor(Math.random() * 4000);
  void sleep(downMs).then(() => cluster.startWorker(slot));
  return `worker ${slot} SIGKILL, back in ${downMs} ms`;
}

async function terminateSessions(databaseUrl: string): Promise<string> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const ended = await sql<{ n: number }[]>`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`;
    return `database: ${ended[0]?.n ?? 0} sessions terminated`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function failReceiver(hosts: Hosts, tenants: readonly Tenant[]): string {
  const tenant = pick(tenants.filter((t) => !t.noisy));
  hosts.setMode(tenant.name, "failing");
  void sleep(20_000).then(() => hosts.setMode(tenant.name, "ok"));
  return `receiver of ${tenant.name} answers 500 for 20 s`;
}

export function startFaults(cluster: Cluster, hosts: Hosts, tenants: readonly Tenant[], databaseUrl: string, everyMs: number) {
  const log: FaultLog[] = [];
  let running = true;
  // The wait for the next fault, cut short when the run stops.
  let wake = () => {};
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    while (running) {
      await pause(everyMs * (0.5 + Math.random()));
      if (!running) break;
      const draw = Math.random();
      const kind: FaultLog["kind"] = draw < 0.35 ? "vendor" : draw < 0.55 ? "worker" : draw < 0.7 ? "rest" : draw < 0.85 ? "database" : "receiver";
      const fault =
        kind === "vendor"
          ? await vendorFault(cluster)
          : kind === "worker"
            ? await killWorker(cluster)
            : kind === "rest"
              ? await cluster.restartRest().then(() => "REST server SIGKILL and started again")
              : kind === "database"
                ? await terminateSessions(databaseUrl)
                : failReceiver(hosts, tenants);
      log.push({ at: Date.now(), kind, fault });
      console.log(`[soak] fault: ${fault}`);
    }
  })();
  return {
    log,
    async stop() {
      running = false;
      wake();
      await loop;
    },
  };
}
