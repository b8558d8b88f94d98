import { cpus, release, totalmem } from "node:os";
import { http, int, mb, ms, pairRatio, ratio, verdict } from "./format.js";
import type { PairResult } from "./paired.js";
import type { NoopLatency } from "./job-reference.js";
import type { AdmissionToRunning } from "./phases/latency.js";
import type { BehindBacklog } from "./phases/behind-backlog.js";
import type { Completion } from "./phases/completion.js";
import type { Drain } from "./phases/drain.js";
import type { InFlight } from "./phases/in-flight.js";
import { growthRows, growthText } from "./growth/report.js";
import type { GrowthResults } from "./growth/run.js";
import { SETTINGS } from "./settings.js";

// One table of figures, references, ratios and goals, printed and written to bench/RESULTS.md with the machine
// and the date, so a result is never read without knowing where it was measured.

export interface BenchResults {
  date: Date;
  // The commit measured, and whether the checkout had changes besides.
  commit: string;
  postgres: string;
  durationSeconds: number;
  loadAverage: string;
  create: PairResult;
  read: PairResult;
  noopJobsPerSecond: number;
  noopLatency: { direct: NoopLatency; overHttp: NoopLatency };
  completion: Completion;
  // The same, the tasks of SETTINGS.sharingTenants tenants in turn.
  sharedCompletion: Completion;
  speechCompletion: Completion;
  latency: AdmissionToRunning;
  sharedLatency: AdmissionToRunning;
  behindBacklog: BehindBacklog;
  // One per worker concurrency.
  drains: Drain[];
  inFlight: InFlight;
  // Null when BENCH_GROWTH_TASKS=0 skipped the growth part.
  growth: GrowthResults | null;
}

// Issue 19's goals, and issue 38's for tenants sharing the worker (which raised completion's from 0.25×). The
// emulator stands in for the vendors, so its memory is reported apart, without a goal.
const GOALS = {
  createRatioEveryRound: 0.5,
  readRatio: 0.7,
  completionRatio: 0.3,
  latencyP50OfReference: 1.2,
  latencyP99OfReference: 2,
  serviceMemoryBytes: 200 * 1024 * 1024,
  behindBacklogP99Ms: 500,
  drainOneOfTwo: 1.1,
};
const SERVICE_PROCESSES = ["rest", "worker"] as const;

export function machine(r: Pick<BenchResults, "postgres" | "loadAverage">): string[] {
  const cpu = cpus();
  return [
    `CPU: ${cpu[0]?.model ?? "unknown"} × ${cpu.length}`,
    `Memory: ${Math.round(totalmem() / 1024 ** 3)} GiB; Linux ${release()}; Node.js ${process.version}`,
    `Database: ${r.postgres}, on this machine`,
    `Load average when the run began: ${r.loadAverage} (other work on the machine shares its cores)`,
  ];
}

const tenantsLabel = (n: number) => (n === 1 ? "1 tenant" : `${n} tenants in turn`);

function completionRow(c: Completion, tenants: number, noopJobsPerSecond: number): string[] {
  const completionRatio = c.tasksPerSecond / noopJobsPerSecond;
  return [
    `To completion: ${int(c.tasks)} prompt enhancements, ${tenantsLabel(tenants)}`,
    `${int(c.tasksPerSecond)} tasks/s`,
    `graphile-worker no-op jobs: ${int(noopJobsPerSecond)} jobs/s`,
    ratio(completionRatio),
    `≥ ${ratio(GOALS.completionRatio)}`,
    verdict(completionRatio >= GOALS.completionRatio),
  ];
}

function latencyRow(l: AdmissionToRunning, tenants: number, noopLatency: BenchResults["noopLatency"]): string[] {
  const noop = noopLatency.direct;
  const floor = noopLatency.overHttp;
  const met = l.p50Ms <= GOALS.latencyP50OfReference * noop.p50Ms && l.p99Ms <= GOALS.latencyP99OfReference * noop.p99Ms;
  return [
    `Admission → \`running\` (${l.samples} tasks, one at a time, ${tenantsLabel(tenants)})`,
    `p50 ${ms(l.p50Ms)}, p99 ${ms(l.p99Ms)}`,
    `no-op job, enqueue → start: p50 ${ms(noop.p50Ms)}, p99 ${ms(noop.p99Ms)}; the same added by a bare Fastify route: ` +
      `p50 ${ms(floor.p50Ms)} (${ratio(floor.p50Ms / noop.p50Ms)}), p99 ${ms(floor.p99Ms)} (${ratio(floor.p99Ms / noop.p99Ms)})`,
    `p50 ${ratio(l.p50Ms / noop.p50Ms)}, p99 ${ratio(l.p99Ms / noop.p99Ms)}; ` +
      `of the bare route's: p50 ${ratio(l.p50Ms / floor.p50Ms)}, p99 ${ratio(l.p99Ms / floor.p99Ms)}`,
    `p50 ≤ ${ratio(GOALS.latencyP50OfReference)}, p99 ≤ ${ratio(GOALS.latencyP99OfReference)} the reference's`,
    verdict(met),
  ];
}

function behindBacklogRow(b: BehindBacklog, latency: AdmissionToRunning): string[] {
  return [
    `Admission → \`running\` beside another tenant's ${int(b.backlog)} queued tasks (${b.sent} tasks, one at a time; ` +
      `the ${b.samples} sent while that backlog still waited)`,
    `p50 ${ms(b.p50Ms)}, p99 ${ms(b.p99Ms)}`,
    `no backlog, 1 tenant (above): p50 ${ms(latency.p50Ms)}, p99 ${ms(latency.p99Ms)}`,
    `p50 ${ratio(b.p50Ms / latency.p50Ms)}, p99 ${ratio(b.p99Ms / latency.p99Ms)}`,
    `p99 ≤ ${ms(GOALS.behindBacklogP99Ms)}`,
    verdict(b.p99Ms <= GOALS.behindBacklogP99Ms),
  ];
}

function drainRow(d: Drain): string[] {
  const oneOfTwo = d.oneTenantSeconds / d.twoTenantsSeconds;
  return [
    `Drain: ${d.tasks} image-understanding tasks, each holding a worker ~${SETTINGS.drainDownloadMs / 1000} s, worker concurrency ${d.workerConcurrency}`,
    `1 tenant: ${d.oneTenantSeconds.toFixed(1)} s`,
    `the same split 2 × ${d.tasks / 2}: ${d.twoTenantsSeconds.toFixed(1)} s`,
    ratio(oneOfTwo),
    `≤ ${ratio(GOALS.drainOneOfTwo)}`,
    verdict(oneOfTwo <= GOALS.drainOneOfTwo),
  ];
}

export function resultsTable(r: BenchResults): string {
  const peaks = r.inFlight.peakBytes;
  const serviceMemory = SERVICE_PROCESSES.map((name) => peaks[name] ?? 0);
  const rows = [
    [
      "Create: `POST /v1/audio/speech`, a new `Idempotency-Key` each",
      http(r.create.service),
      `bare Fastify INSERT: ${http(r.create.reference)}`,
      pairRatio(r.create),
      `≥ ${ratio(GOALS.createRatioEveryRound)} in every round`,
      verdict(Math.min(...r.create.roundRatios) >= GOALS.createRatioEveryRound),
    ],
    [
      "Read: `GET /v1/tasks/{id}`",
      http(r.read.service),
      `bare Fastify GET by primary key: ${http(r.read.reference)}`,
      pairRatio(r.read),
      `≥ ${ratio(GOALS.readRatio)}`,
      verdict(r.read.ratio >= GOALS.readRatio),
    ],
    completionRow(r.completion, 1, r.noopJobsPerSecond),
    completionRow(r.sharedCompletion, SETTINGS.sharingTenants, r.noopJobsPerSecond),
    [
      `To completion: ${int(r.speechCompletion.tasks)} speech tasks (synthesis and decoding included)`,
      `${int(r.speechCompletion.tasksPerSecond)} tasks/s`,
      "no-op jobs, as above",
      ratio(r.speechCompletion.tasksPerSecond / r.noopJobsPerSecond),
      "",
      "",
    ],
    latencyRow(r.latency, 1, r.noopLatency),
    latencyRow(r.sharedLatency, SETTINGS.sharingTenants, r.noopLatency),
    behindBacklogRow(r.behindBacklog, r.latency),
    ...r.drains.map(drainRow),
    [
      `In flight: ${int(r.inFlight.tasks)} video tasks pending at the vendor`,
      `peak RSS: ${SERVICE_PROCESSES.map((name) => `${name} ${mb(peaks[name] ?? 0)}`).join(", ")}`,
      `the vendor emulator, standing in for the vendors: ${mb(peaks.emulator ?? 0)}`,
      "",
      `REST and worker each ≤ ${mb(GOALS.serviceMemoryBytes)}`,
      verdict(Math.max(...serviceMemory) <= GOALS.serviceMemoryBytes),
    ],
  ];
  if (r.growth) rows.push(...growthRows(r.growth));
  const header = ["Measure", "Service", "Reference", "Ratio", "Goal", ""];
  return [header, header.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

export function resultsDocument(r: BenchResults): string {
  return `# Benchmark results

Written by \`npm run bench\` on ${r.date.toISOString()} at ${r.commit} (the run took ${Math.round(r.durationSeconds)} s).

${machine(r)
  .map((line) => `- ${line}`)
  .join("\n")}

${resultsTable(r)}

How it was measured (\`bench/\`): every figure comes from this one run, on one Postgres, with the service as
separate processes (REST server, worker, vendor emulator without added latency) and \`LOG_LEVEL=warn\`. HTTP loads use
autocannon with ${SETTINGS.connections} connections: each side is warmed up for ${SETTINGS.warmupSeconds} s, then ${SETTINGS.rounds} rounds of
${SETTINGS.roundSeconds} s run the reference and the service back to back (a bare Fastify server on the same driver settings,
beside the service); requests per second are over all rounds, latencies the median round's, CPU per request is the
serving process' and the run database's Postgres backends' CPU time divided by the requests served. Create uses a new
\`Idempotency-Key\` per request with no worker running; read cycles over 1,000 of those tasks. Completion admits the
tasks first and counts from the first task's start to the last one's end, like the no-op reference
(${int(SETTINGS.noopJobs)} jobs, the same worker concurrency of ${SETTINGS.workerConcurrency}). Admission → running is, for tasks created
${SETTINGS.latencySpacingMs} ms apart with an idle worker, the time from just before the request is sent (node:http, one
kept-alive connection) to the task's \`running\` event (the start transaction's time), after ${SETTINGS.latencyWarmup} tasks sent the same way
and not timed (the worker's warm-up); the no-op reference adds jobs as far apart, drops its first ${SETTINGS.latencyWarmup} likewise and
times each from just before its \`add_job\` to the job's start, then once more through a bare
Fastify route that only runs that \`add_job\` (asked as the service is): what HTTP alone adds, before a service does
anything of its own. Completion and admission → running run once with every task one tenant's and once with the
tasks of ${SETTINGS.sharingTenants} tenants in turn; no setting changes how the service shares its worker between
tenants. Beside a backlog, one tenant's ${int(SETTINGS.backlogTasks)} prompt enhancements are admitted with no worker
running, the worker starts, and another tenant's ${SETTINGS.backlogSamples} tasks are timed as above; the figures are
those of the tasks sent before the backlog's last task started. The drains start a service of their own (on a
database of their own) for each worker concurrency, ${SETTINGS.workerConcurrency} as above and ${SETTINGS.localWorkerConcurrency} as \`npm start\` runs a
local stack, with only \`OUTBOUND_ALLOW_LOOPBACK_HTTP\` set beyond the defaults, for their image origin on this
machine: it sends a small PNG in pieces over ${SETTINGS.drainDownloadMs / 1000} s, so each image-understanding task
holds a worker that long. ${SETTINGS.drainTasks} such tasks are admitted at once to a running worker, all one tenant's,
then ${SETTINGS.drainTasks / 2} of each of two tenants; each drain is timed from its first admission to its last task's
end. In flight scripts the emulator's \`hang\` fault so every vendorA video job stays running, and samples each
process' resident memory (\`/proc/<pid>/status\`) from the first admission until ${SETTINGS.inFlightHoldSeconds} s after the last submission.
${r.growth ? `\n${growthText(r.growth)}` : ""}`;
}
