import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../callbacks/receiver.js";
import { deliveriesByTask, ledgerKindsByTask } from "./exactly-once.js";
import { eventually } from "../support/wait.js";
import { halfSentPost } from "./half-sent-request.js";
import {
  createSpeechTask,
  emulatorSubmissions,
  readTask,
  startDeployment,
  waitForTerminal,
  type Deployment,
  type ServiceProcess,
} from "./service-processes.js";

// docs/deployment.md's shape on one machine: REST, MCP and worker processes, the entry points a deployment runs,
// sharing nothing but Postgres and the artifact store. Each part below runs its own deployment, one after another
// (every process holds database connections, and the suite shares one Postgres server).

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => receiver?.close());

// Tasks are told apart at the receiver by their own ids; each part looks only at the deliveries after its start.
const deliveriesSince = (start: number) => deliveriesByTask(receiver.requests.slice(start));

async function expectCompletedExactlyOnce(d: Deployment, restUrl: string, taskIds: string[], deliveriesBefore: number) {
  const ended = await waitForTerminal(restUrl, d.apiKey, taskIds, 60_000);
  expect(ended.map((t) => t.status)).toEqual(taskIds.map(() => "succeeded"));
  const ledger = await ledgerKindsByTask(d.database.url, taskIds);
  expect([...ledger.values()].filter((kinds) => kinds.join() !== "hold,capture")).toEqual([]);
  await receiver.waitForRequests(deliveriesBefore + taskIds.length, 30_000);
  await pause(300);
  const deliveries = deliveriesSince(deliveriesBefore);
  expect([...deliveries.keys()].sort()).toEqual([...taskIds].sort());
  expect([...deliveries.values()].every((entry) => entry.count === 1 && entry.eventIds.size === 1)).toBe(true);
}

describe("two REST replicas and two workers on one database", () => {
  const TASKS = 12;
  let d: Deployment;
  let restA: ServiceProcess;
  let restB: ServiceProcess;
  let workers: ServiceProcess[];

  beforeAll(async () => {
    d = await startDeployment({ emulatorLatencyMs: 150 });
    [restA, restB, ...workers] = await Promise.all([d.startRest("rest-a"), d.startRest("rest-b"), d.startWorker("worker-1"), d.startWorker("worker-2")]);
  }, 90_000);

  afterAll(async () => d?.close());

  // A worker counts as alive while its last beat is under three beats (0.9 s here) old; on a loaded machine one
  // beat can come late, so each replica is asked until it has seen both (the first answer, usually).
  it("both replicas see both workers alive", async () => {
    for (const rest of [restA, restB]) {
      const readiness = async () =>
        (await (await fetch(`${rest.url}/readyz`)).json()) as { ready: boolean; checks: { workers: { alive: number } } };
      await expect
        .poll(async () => {
          const { ready, checks } = await readiness();
          return { ready, alive: checks.workers.alive };
        }, { timeout: 10_000, interval: 100, message: rest.name })
        .toEqual({ ready: true, alive: 2 });
    }
  });

  it("spreads tasks across the workers, runs each once and delivers each callback once", { timeout: 90_000 }, async () => {
    const deliveriesBefore = receiver.requests.length;
    const created = await Promise.all(
      Array.from({ length: TASKS }, (_, i) =>
        createSpeechTask(i % 2 === 0 ? restA.url : restB.url, d.apiKey, `two-by-two-${i}`, {
          voice: "en_female_aria",
          input: `Task number ${i}.`,
          callback_url: `${receiver.url}/hooks`,
        }),
      ),
    );
    expect(created.map((c) => c.status), `${restA.problems()}\n${restB.problems()}`).toEqual(Array(TASKS).fill(202));
    const taskIds = created.map((c) => c.body.task_id);

    // Read through the replica that did not admit half of them: they share only the database.
    await expectCompletedExactlyOnce(d, restB.url, taskIds, deliveriesBefore);
    // Executed once: the vendor saw one submission per task.
    expect(await emulatorSubmissions(d.emulator.url)).toBe(TASKS);

    // Which worker finished which task, from the workers' own log lines.
    const finishedBy = new Map<string, string[]>();
    for (const worker of workers) {
      for (const line of worker.lines.filter((l) => l.msg === "task finished")) {
        finishedBy.set(line.task_id, [...(finishedBy.get(line.task_id) ?? []), line.worker_id]);
      }
    }
    expect([...finishedBy.keys()].sort()).toEqual([...taskIds].sort());
    expect([...finishedBy.values()].filter((ids) => ids.length !== 1)).toEqual([]);
    const perWorker = workers.map((w) => w.lines.filter((l) => l.msg === "task finished").length);
    expect(perWorker.every((n) => n > 0), `tasks per worker: ${perWorker.join(", ")}`).toBe(true);
    expect(new Set(workers.map((w) => w.lines.find((l) => l.msg === "worker running")?.worker_id)).size).toBe(2);
  });

  it("counts admissions on the replicas and finishes on the workers, which Prometheus sums", async () => {
    const scrape = async (url: string) => (await fetch(url)).text();
    const total = (text: string, metric: string) =>
      [...text.matchAll(new RegExp(`^${metric}\\{[^}]*\\} (\\d+)`, "gm"))].reduce((sum, m) => sum + Number(m[1]), 0);
    const admitted = await Promise.all([restA, restB].map((r) => scrape(`${r.url}/metrics`)));
    expect(admitted.map((text) => total(text, "svc_tasks_admitted_total"))).toEqual([TASKS / 2, TASKS / 2]);
    const finished = await Promise.all(workers.map((w) => scrape(`${w.url}/metrics`)));
    expect(finished.reduce((sum, text) => sum + total(text, "svc_tasks_finished_total"), 0)).toBe(TASKS);
  });
});

// SIGTERM to a server mid-load: it stops accepting, answers what is in flight, and exits; whatever a client could
// not get answered it sends again (same Idempotency-Key) to another replica, and every admitted task then
// completes exactly once.
describe("servers stopped mid-load", () => {
  let d: Deployment;
  let worker: ServiceProcess;

  beforeAll(async () => {
    d = await startDeployment({ emulatorLatencyMs: 100 });
  }, 60_000);

  afterAll(async () => d?.close());

  const speech = (key: string) => ({ voice: "en_female_aria", input: `Test ${key}.`, callback_url: `${receiver.url}/hooks` });
  const halfSentCreate = (rest: ServiceProcess, key: string) =>
    halfSentPost(`${rest.url}/v1/audio/speech`, { authorization: `Bearer ${d.apiKey}`, "idempotency-key": key }, speech(key));

  it("a REST replica answers its in-flight requests, exits 0, and every task admitted anywhere completes exactly once", { timeout: 90_000 }, async () => {
    const deliveriesBefore = receiver.requests.length;
    let rest1: ServiceProcess;
    [rest1, worker] = await Promise.all([d.startRest("rest-1"), d.startWorker("worker")]);
    const outcomes = new Map<string, number | "no answer">();
    let loading = true;
    const client = async (c: number) => {
      for (let n = 0; loading; n++) {
        const key = `load-${c}-${n}`;
        try {
          const created = await createSpeechTask(rest1.url, d.apiKey, key, speech(key));
          outcomes.set(key, created.status);
          if (created.status !== 202) return;
        } catch {
          outcomes.set(key, "no answer");
          return;
        }
        await pause(150);
      }
    };
    // A steady trickle of admissions (every speech task costs the emulator real synthesis).
    const clients = Array.from({ length: 2 }, (_, c) => client(c));
    await eventually("fewer than 4 admissions", 30_000, () => ([...outcomes.values()].filter((s) => s === 202).length >= 4 ? true : undefined), 20);

    const inFlight = halfSentCreate(rest1, "in-flight");
    await pause(500);
    const exited = rest1.terminate();
    await rest1.waitForLine((line) => line.msg === "shutting down: finishing in-flight work");
    await pause(300);
    inFlight.finish();
    expect((await inFlight.response).status).toBe(202);
    expect(await exited).toEqual({ code: 0, signal: null });
    loading = false;
    await Promise.all(clients);

    // Refused or unanswered requests go to another replica under the same key: admitted there, or replayed.
    const rest2 = await d.startRest("rest-2");
    const keys = ["in-flight", ...outcomes.keys()];
    const tasks = await Promise.all(keys.map((key) => createSpeechTask(rest2.url, d.apiKey, key, speech(key))));
    expect(tasks.map((t) => t.status), rest2.problems()).toEqual(keys.map(() => 202));
    const taskIds = tasks.map((t) => t.body.task_id);
    expect(new Set(taskIds).size).toBe(keys.length);
    await expectCompletedExactlyOnce(d, rest2.url, taskIds, deliveriesBefore);
    expect(await emulatorSubmissions(d.emulator.url)).toBe(taskIds.length);
  });

  it("a REST replica cuts a request still unfinished at SHUTDOWN_TIMEOUT_MS and exits 1", { timeout: 60_000 }, async () => {
    const rest = await d.startRest("rest-bounded", { SHUTDOWN_TIMEOUT_MS: "1000" });
    const stuck = halfSentCreate(rest, "never-finished");
    const answer = stuck.response.then(
      () => "answered",
      (error: Error) => error.message,
    );
    await pause(500);
    expect(await rest.terminate()).toEqual({ code: 1, signal: null });
    expect(await answer).toBe("socket hang up");
    expect(rest.lines.some((line) => line.msg === "in-flight work did not finish in time; abandoning it")).toBe(true);
  });

  it("an MCP replica answers the tool call in flight, then exits 0", { timeout: 60_000 }, async () => {
    // No worker: the task waited on stays queued, so the wait is still running when the signal comes.
    await worker?.terminate();
    const mcp = await d.startMcp("mcp");
    const client = new Client({ name: "shutdown-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${mcp.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${d.apiKey}` } } }));
    const created = await client.callTool({
      name: "svc.speech.synthesize",
      arguments: { client_request_id: "mcp-shutdown", voice: "en_female_aria", input: "Waiting through a shutdown." },
    });
    const taskId = (created.structuredContent as { task_id: string }).task_id;
    // A four-second wait on a task that does not end meanwhile.
    const waiting = client.callTool({ name: "svc.tasks.get", arguments: { task_id: taskId, wait_seconds: 4 } });
    await pause(1000);
    const exited = mcp.terminate();
    const result = await waiting;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ task_id: taskId });
    expect(await exited).toEqual({ code: 0, signal: null });
    await client.close().catch(() => undefined);
  });
});

// SIGTERM to a worker mid-load: it takes no new jobs, finishes the ones it holds (or, past SHUTDOWN_TIMEOUT_MS,
// abandons them to graphile-worker, which releases them), and exits 0; after a restart every admitted task
// completes exactly once. Each vendor call takes 800 ms, so jobs are in flight when the signal comes.
describe("a worker stopped mid-load", () => {
  let d: Deployment;
  let rest: ServiceProcess;

  beforeAll(async () => {
    d = await startDeployment({ emulatorLatencyMs: 800 });
    rest = await d.startRest("rest");
  }, 60_000);

  afterAll(async () => d?.close());

  async function admit(prefix: string, count: number): Promise<string[]> {
    const created = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        createSpeechTask(rest.url, d.apiKey, `${prefix}-${i}`, { voice: "en_female_aria", input: `Worker ${prefix} ${i}.`, callback_url: `${receiver.url}/hooks` }),
      ),
    );
    expect(created.map((c) => c.status), rest.problems()).toEqual(created.map(() => 202));
    return created.map((c) => c.body.task_id);
  }

  async function untilSomeRunning(taskIds: string[]): Promise<void> {
    await eventually("no task running", 30_000, async () => {
      const tasks = await Promise.all(taskIds.map((id) => readTask(rest.url, d.apiKey, id)));
      return tasks.some((task) => task.status === "running") ? true : undefined;
    }, 20);
  }

  it("finishes the jobs it holds, exits 0, and its successor completes the rest exactly once", { timeout: 90_000 }, async () => {
    const deliveriesBefore = receiver.requests.length;
    const first = await d.startWorker("worker-1");
    const taskIds = await admit("finish", 6);
    await untilSomeRunning(taskIds);

    const exited = first.terminate();
    // Not ready from the moment it stops taking jobs, while it finishes the ones it holds.
    await first.waitForLine((line) => line.msg === "shutting down: finishing in-flight work");
    expect((await fetch(`${first.url}/readyz`)).status).toBe(503);
    expect(await exited).toEqual({ code: 0, signal: null });
    const finishedByFirst = first.lines.filter((line) => line.msg === "task finished").map((line) => line.task_id);
    expect(finishedByFirst.length).toBeGreaterThan(0);
    expect(first.lines.some((line) => line.msg === "job abandoned at shutdown; it runs again")).toBe(false);

    const second = await d.startWorker("worker-2");
    await expectCompletedExactlyOnce(d, rest.url, taskIds, deliveriesBefore);
    // Nothing was executed twice: one vendor submission per task.
    expect(await emulatorSubmissions(d.emulator.url)).toBe(taskIds.length);
    const finishedBySecond = second.lines.filter((line) => line.msg === "task finished").map((line) => line.task_id);
    expect([...finishedByFirst, ...finishedBySecond].sort()).toEqual([...taskIds].sort());
    await second.terminate();
  });

  it("past SHUTDOWN_TIMEOUT_MS abandons its jobs for another worker, and each task still completes exactly once", { timeout: 90_000 }, async () => {
    const submissionsBefore = await emulatorSubmissions(d.emulator.url);
    const deliveriesBefore = receiver.requests.length;
    const impatient = await d.startWorker("worker-impatient", { SHUTDOWN_TIMEOUT_MS: "200" });
    const taskIds = await admit("release", 3);
    await untilSomeRunning(taskIds);

    expect(await impatient.terminate()).toEqual({ code: 0, signal: null });
    // Its jobs got SHUTDOWN_TIMEOUT_MS; the drain, 5 s more to hand them back (docs/configuration.md says so).
    expect(impatient.lines.find((line) => line.msg === "shutting down: finishing in-flight work")).toMatchObject({ jobs_ms: 200, drain_ms: 5200 });
    const abandoned = impatient.lines.filter((line) => line.msg === "job abandoned at shutdown; it runs again");
    expect(abandoned.length).toBeGreaterThan(0);
    // The abandoned job's line says which task, tenant and request it was working for.
    expect(abandoned[0]).toMatchObject({ tenant_id: d.tenantId, job: "execute_task" });
    expect(taskIds).toContain(abandoned[0]?.task_id);

    await d.startWorker("worker-successor");
    await expectCompletedExactlyOnce(d, rest.url, taskIds, deliveriesBefore);
    // An abandoned vendor call is made again by the successor: at least once at the vendor, exactly once here.
    expect(await emulatorSubmissions(d.emulator.url)).toBe(submissionsBefore + taskIds.length + abandoned.length);
  });
});
