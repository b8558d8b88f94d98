import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { migrateDatabase } from "../core/index.js";
import { openBenchDatabase, type BenchDatabase } from "./postgres.js";
import { sleep } from "./stats.js";
import { runChecks, startLatencies } from "./soak/checks.js";
import { startClients, type Tenant } from "./soak/clients.js";
import { startCluster, type Cluster } from "./soak/cluster.js";
import { startFaults } from "./soak/faults.js";
import { startHosts, type Hosts } from "./soak/hosts.js";
import { SOAK, TENANT_CREDITS } from "./soak/settings.js";

// `npm run soak` (not part of `npm test`): many tenants create a mixed load for SOAK_SECONDS (10 minutes by
// default) while one noisy tenant floods and random faults hit the service (bench/soak/faults.ts); then the load
// stops, the work drains, and bench/soak/checks.ts proves what must hold after any fault. Prints the settings,
// the faults, every anomaly and each tenant's admission-to-start latency; exits 1 on any anomaly.

const log = (line: string) => console.log(`[soak] ${line}`);
let database: BenchDatabase | null = null;
let hosts: Hosts | null = null;
let cluster: Cluster | null = null;

// SOAK_KEEP_DATABASE=1 leaves the run's database (on DATABASE_URL's server) for a look at its anomalies.
async function cleanUp(): Promise<void> {
  await cluster?.close().catch((error: unknown) => console.error("[soak] stopping the service:", error));
  await hosts?.close();
  if (process.env.SOAK_KEEP_DATABASE === "1") console.log(`[soak] database kept: ${database?.url}`);
  else await database?.close().catch((error: unknown) => console.error("[soak] removing the database:", error));
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

async function openWork(run: Cluster): Promise<{ tasks: number; callbacks: number }> {
  const rows = await run.core.db.execute<{ tasks: number; callbacks: number }>(sql`
    select count(*) filter (where status in ('queued', 'running'))::int as tasks,
           count(*) filter (where callback_state->>'status' in ('pending', 'retrying'))::int as callbacks
    from tasks`);
  return rows[0] ?? { tasks: 0, callbacks: 0 };
}

let anomalies = 0;
try {
  const startedAt = Date.now();
  const load = loadavg().map((value) => value.toFixed(2)).join(", ");
  database = await openBenchDatabase(log);
  await migrateDatabase(database.url);
  hosts = await startHosts();
  cluster = await startCluster(database.url);
  const run = cluster;
  const tenants: Tenant[] = [];
  for (let i = 1; i <= SOAK.quietTenants; i++) tenants.push({ name: `quiet-${i}`, noisy: false, ...(await run.newTenant(`soak quiet ${i}`, TENANT_CREDITS)) });
  tenants.push({ name: "noisy", noisy: true, ...(await run.newTenant("soak noisy", TENANT_CREDITS)) });
  // The noisy tenant's receiver takes 8 of its 10 s on every delivery.
  hosts.setMode("noisy", "slow");

  log(`settings: ${JSON.stringify(SOAK)}; load average at start ${load}`);
  const clients = startClients(() => run.restUrl, hosts, tenants, SOAK);
  const faults = startFaults(run, hosts, tenants, database.url, SOAK.faultEveryMs);
  const loadEnds = Date.now() + SOAK.seconds * 1000;
  while (Date.now() < loadEnds) {
    await sleep(Math.min(30_000, loadEnds - Date.now()));
    const open = await openWork(run).catch(() => null);
    log(`${Math.round((Date.now() - startedAt) / 1000)} s: ${clients.created.length} tasks created, ${open?.tasks ?? "?"} open`);
  }
  await faults.stop();
  await clients.stop();
  log(`load stopped: ${clients.created.length} tasks created (${clients.retries} answers lost and sent again), ${faults.log.length} faults`);

  // Drain: every worker up, every receiver answering, until nothing is open or the drain time is over.
  for (const [slot, worker] of run.workers().entries()) if (!worker) await run.startWorker(slot);
  for (const tenant of tenants) hosts.setMode(tenant.name, "ok");
  const drainEnds = Date.now() + SOAK.drainSeconds * 1000;
  for (;;) {
    const open = await openWork(run);
    if ((open.tasks === 0 && open.callbacks === 0) || Date.now() > drainEnds) {
      log(`drained in ${Math.round((Date.now() - loadEnds) / 1000)} s: ${open.tasks} tasks and ${open.callbacks} callbacks still open`);
      break;
    }
    await sleep(1000);
  }

  const checks = await runChecks(run.core, hosts.deliveries);
  const latencies = await startLatencies(run.core, tenants);
  const byKind = new Map<string, number>();
  for (const task of clients.created) byKind.set(task.kind, (byKind.get(task.kind) ?? 0) + 1);
  const outcomes = await run.core.db.execute<{ status: string; code: string | null; n: number }>(
    sql`select status, error->>'code' as code, count(*)::int as n from tasks group by 1, 2 order by 3 desc`,
  );

  console.log(`\n## Soak (${new Date().toISOString()}, ${Math.round((Date.now() - startedAt) / 1000)} s in all)\n`);
  console.log(`- settings: ${JSON.stringify(SOAK)}; ${database.server}; load average at start ${load}`);
  console.log(`- tasks created: ${clients.created.length} (${[...byKind].map(([kind, n]) => `${kind} ${n}`).join(", ")}); answers lost and sent again: ${clients.retries}`);
  console.log(`- outcomes: ${outcomes.map((o) => `${o.status}${o.code ? ` ${o.code}` : ""} ${o.n}`).join(", ")}`);
  const faultCounts = new Map<string, number>();
  for (const entry of faults.log) faultCounts.set(entry.kind, (faultCounts.get(entry.kind) ?? 0) + 1);
  console.log(`- faults: ${faults.log.length} (${[...faultCounts].map(([kind, n]) => `${kind} ${n}`).join(", ")})`);
  console.log("\n| check | anomalies | figures |\n| --- | --- | --- |");
  for (const check of checks) {
    anomalies += check.anomalies.length;
    console.log(`| ${check.name} | ${check.anomalies.length} | ${check.figures ?? ""} |`);
  }
  console.log("\n| tenant | tasks started | admission → start p50 | p99 | max |\n| --- | --- | --- | --- | --- |");
  for (const l of latencies) {
    console.log(`| ${l.tenant}${l.noisy ? " (floods)" : ""} | ${l.tasks} | ${l.p50Ms.toFixed(0)} ms | ${l.p99Ms.toFixed(0)} ms | ${l.maxMs.toFixed(0)} ms |`);
  }
  for (const check of checks) for (const anomaly of check.anomalies.slice(0, 20)) console.log(`anomaly (${check.name}): ${anomaly}`);
  console.log(`\nfaults:\n${faults.log.map((f) => `  +${Math.round((f.at - startedAt) / 1000)} s ${f.fault}`).join("\n")}`);
} catch (error) {
  console.error("[soak] failed:", error);
  anomalies = Math.max(anomalies, 1);
} finally {
  await cleanUp();
}
process.exit(anomalies > 0 ? 1 : 0);
