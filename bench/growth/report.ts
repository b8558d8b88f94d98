import { http, int, mb, ms, pairRatio, ratio, verdict } from "../format.js";
import type { PairResult } from "../paired.js";
import type { Completion } from "../phases/completion.js";
import { SETTINGS } from "../settings.js";
import type { GrowthResults } from "./run.js";
import { GROWTH } from "./settings.js";

// The growth part's rows of the bench's table (seeded against empty, issue 32's goal of at least 0.9× each) and
// the paragraph saying how they were measured.

const GOAL = 0.9;

const tasksPerSecond = (runs: Completion[]) => runs.reduce((sum, r) => sum + r.tasks, 0) / runs.reduce((sum, r) => sum + r.tasks / r.tasksPerSecond, 0);

export function growthRows(g: GrowthResults): string[][] {
  const seededName = `With ${int(g.tasks)} finished tasks`;
  const pair = (what: string, p: PairResult): string[] => [
    `${seededName}: ${what}`,
    http(p.service),
    `empty database: ${http(p.reference)}`,
    pairRatio(p),
    `≥ ${ratio(GOAL)}`,
    verdict(p.ratio >= GOAL),
  ];
  const seeded = tasksPerSecond(g.completion.seeded);
  const empty = tasksPerSecond(g.completion.empty);
  const { sweep } = g;
  const task = sweep.taskSweep;
  const retention = sweep.retention;
  const taskRows = task.keys + task.events + task.artifacts;
  return [
    pair("create, `POST /v1/audio/speech`", g.create),
    pair("read, `GET /v1/tasks/{id}` of the measured tenant's year", g.read),
    pair("list, `GET /v1/tasks`, first page", g.listFirst),
    pair(`list, a page ${int(g.laterPageDepth)} tasks deep`, g.listLater),
    [
      `${seededName}: to completion, ${g.completion.seeded.length} × ${int(SETTINGS.completionTasks)} prompt enhancements`,
      `${int(seeded)} tasks/s (${g.completion.seeded.map((r) => int(r.tasksPerSecond)).join(", ")})`,
      `empty database: ${int(empty)} tasks/s (${g.completion.empty.map((r) => int(r.tasksPerSecond)).join(", ")})`,
      ratio(seeded / empty),
      `≥ ${ratio(GOAL)}`,
      verdict(seeded / empty >= GOAL),
    ],
    [
      `${seededName}: the sweep, creates running`,
      `task sweep: ${int(task.keys)} idempotency keys, ${int(task.events)} events, ${int(task.artifacts)} artifacts in ` +
        `${task.seconds.toFixed(1)} s (${int(taskRows / task.seconds)} rows/s); retention runs back to back: ${int(retention.artifacts)} ` +
        `artifacts in ${retention.seconds.toFixed(1)} s (${int(retention.artifacts / retention.seconds)}/s) of the ${int(retention.dueBefore)} due; ` +
        `at the worker's one run a minute (${int(retention.mostInOneRun)} at most), those ${int(retention.dueBefore)} take ` +
        `${(retention.dueBefore / retention.mostInOneRun / 60).toFixed(1)} h`,
      `create meanwhile: ${int(sweep.during.requestsPerSecond)} req/s, p50 ${ms(sweep.during.p50Ms)}, p99 ${ms(sweep.during.p99Ms)}; ` +
        `without: ${int(sweep.without.requestsPerSecond)} req/s, p50 ${ms(sweep.without.p50Ms)}, p99 ${ms(sweep.without.p99Ms)}`,
      `req/s ${ratio(sweep.during.requestsPerSecond / sweep.without.requestsPerSecond)}, p50 ${ratio(sweep.during.p50Ms / sweep.without.p50Ms)}, ` +
        `p99 ${ratio(sweep.during.p99Ms / sweep.without.p99Ms)}`,
      "",
      "",
    ],
  ];
}

export function growthText(g: GrowthResults): string {
  const steps = Object.entries(g.seed.steps)
    .filter(([name]) => !name.startsWith("vacuum"))
    .map(([name, seconds]) => `${name} ${seconds.toFixed(0)} s`)
    .join(", ");
  const vacuum = Object.entries(g.seed.steps)
    .filter(([name]) => name.startsWith("vacuum"))
    .reduce((sum, [, seconds]) => sum + seconds, 0);
  return `The rows "With ${int(g.tasks)} finished tasks" (\`bench/growth/\`; load average ${g.loadAverage} when that part
began) compare two databases on the same server, each with its own service, in alternating rounds as above: one
seeded with a year of ${int(g.tasks)} finished tasks over ${int(g.tenants)} tenants (${mb(g.databaseBytes.seeded)} as
seeded), and one holding only the measured tenant's ${int(g.measuredTasks)} of them (${mb(g.databaseBytes.empty)}) besides the
templates. The seed copies 20 template tasks that the service itself ran to their end in that second database (speech, images, music, video, prompt enhancement, image
understanding with a callback; two failed and refunded, one canceled), with their ledger rows (hold, then capture or
release), idempotency keys, events and artifacts, each tenant with an API key, a grant and an account agreeing with
its ledger; tasks spread evenly over the year, tenants drawn with a skew, every table written in time order and then
vacuumed and analyzed. Seeding took ${int(g.seed.seconds)} s (${steps}; vacuum and analyze ${vacuum.toFixed(0)} s). Read cycles over
${int(GROWTH.readTasks)} of the measured tenant's tasks from its whole year; the later list page is reached by following
\`next_cursor\` ${int(g.laterPageDepth)} tasks deep; create admits speech tasks for the measured tenant with no worker running;
completion is the phase above, on a new tenant, alternating the databases, after the loads' leftover jobs were removed
and both databases vacuumed and analyzed (${int(g.vacuumSeconds)} s), as autovacuum would soon after such loads. The sweep row is the worker's sweep
(\`sweepOverdueTasks\`, then \`sweepRetention\` runs, from the benchmark's own connection) over the seeded database as it
was written — every key and event older than a day still there, and every artifact past its ${g.retentionDays}-day retention
(the seed's year predates retention, as a deployment upgrading to it finds its database): one task sweep, then
retention runs back to back until ${GROWTH.sweepSeconds} s had passed, the oldest ${int(GROWTH.filedArtifacts)} artifacts each given a 4 KiB
file first; meanwhile the same create load ran in ${GROWTH.loadSliceSeconds}-second slices (latencies the median slice's), against
${GROWTH.baselineSlices} slices just before it.
`;
}
