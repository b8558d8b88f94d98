import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { cancelTask, createTask, migrateDatabase } from "../core/index.js";
import { openBenchDatabase, type BenchDatabase } from "./postgres.js";
import { writeResultsSection } from "./results-file.js";
import { startService, type RunningService } from "./service.js";
import { SPEECH_BODY } from "./settings.js";
import { percentile, sleep, until } from "./stats.js";

// `npm run build && node dist/bench/task-streams.js`: STREAMS open GET /v1/tasks/{id}/events streams on one REST
// process, one per queued task; the REST process's resident memory before and with them open; then every task is
// ended (canceled by the bench's own core, a real terminal transition whose trigger notifies), and the delay from
// each end's commit to its `task` event on the stream is measured. The result replaces its section in
// bench/RESULTS.md.

const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);
const ENDING_CONCURRENCY = 20;
const SECTION = "## Open task event streams on one REST process (issue 16)";
const log = (line: string) => console.log(`[task-streams] ${line}`);

async function rssMiB(pid: number): Promise<number> {
  const kb = Number((await readFile(`/proc/${pid}/status`, "utf8")).match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0);
  return kb / 1024;
}

let database: BenchDatabase | null = null;
let service: RunningService | null = null;

try {
  database = await openBenchDatabase(log);
  await migrateDatabase(database.url);
  service = await startService(database.url);
  const { core, restUrl, rest } = service;
  const tenant = await service.newTenant("100000000");
  const body = JSON.parse(SPEECH_BODY) as Record<string, unknown>;
  const taskIds: string[] = [];
  for (let i = 0; i < STREAMS; i++) {
    const created = await createTask(core, "text_to_speech", body, { tenantId: tenant.tenantId, idempotencyKey: randomUUID(), requestId: "bench", surface: "rest" });
    taskIds.push(created.task.task_id);
  }
  log(`${STREAMS} queued tasks`);
  await sleep(1000);
  const idleRss = await rssMiB(rest.pid);

  const endedAt = new Map<string, number>();
  const eventAt = new Map<string, number>();
  let opened = 0;
  let finished = 0;
  const streams = taskIds.map(async (taskId) => {
    const response = await fetch(`${restUrl}/v1/tasks/${taskId}/events`, {
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    if (response.status !== 200) throw new Error(`stream of ${taskId}: ${response.status}`);
    opened++;
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (!eventAt.has(taskId) && text.includes("event: task\n")) eventAt.set(taskId, performance.now());
    }
    finished++;
  });
  await until("every stream open", async () => opened === STREAMS, 120_000);
  await sleep(2000);
  const openRss = await rssMiB(rest.pid);
  log(`REST process: ${idleRss.toFixed(1)} MiB before, ${openRss.toFixed(1)} MiB with ${STREAMS} streams open`);

  const queue = [...taskIds];
  const endAll = Array.from({ length: ENDING_CONCURRENCY }, async () => {
    for (let taskId = queue.shift(); taskId !== undefined; taskId = queue.shift()) {
      await cancelTask(core, tenant.tenantId, taskId, "bench");
      endedAt.set(taskId, performance.now());
    }
  });
  const started = performance.now();
  await Promise.all(endAll);
  const endingSeconds = (performance.now() - started) / 1000;
  await Promise.all(streams);
  // An event read before the bench's own await of the commit resumed counts as no delay.
  const delays = taskIds.flatMap((id) => {
    const ended = endedAt.get(id);
    const seen = eventAt.get(id);
    return ended !== undefined && seen !== undefined ? [Math.max(0, seen - ended)] : [];
  });
  log(`${finished} streams ended; delay p50 ${percentile(delays, 50).toFixed(1)} ms, p99 ${percentile(delays, 99).toFixed(1)} ms`);

  const section = [
    SECTION,
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run build && node dist/bench/task-streams.js\` (bench/task-streams.ts), on the`,
    "shared 2-core machine (other agents' work running), against the Postgres the bench starts (embedded) unless",
    "DATABASE_URL names one.",
    "",
    `${STREAMS} queued speech tasks, one \`GET /v1/tasks/{id}/events\` stream open on each against one REST process; then`,
    `each task ended (canceled by the bench's core, ${ENDING_CONCURRENCY} at a time, ${(STREAMS / endingSeconds).toFixed(0)} endings/s): the delay is`,
    "from the end's commit returning to the `task` event (the final envelope) read on its stream. The REST process",
    "holds one LISTEN connection for all of them.",
    "",
    "| Measure | Value |",
    "|---|---|",
    `| REST resident memory, no stream open | ${idleRss.toFixed(1)} MiB |`,
    `| REST resident memory, ${STREAMS} streams open | ${openRss.toFixed(1)} MiB (${(((openRss - idleRss) * 1024) / STREAMS).toFixed(1)} KiB a stream) |`,
    `| End to event, p50 | ${percentile(delays, 50).toFixed(1)} ms |`,
    `| End to event, p99 | ${percentile(delays, 99).toFixed(1)} ms |`,
    `| Streams that delivered the end | ${delays.length} of ${STREAMS} |`,
    "",
  ].join("\n");
await writeResultsSection(SECTION, section);
  log(`wrote ${SECTION} in bench/RESULTS.md`);
} finally {
  await service?.close();
  await database?.close();
}
