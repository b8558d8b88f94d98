import type { CallToolResult, ServerContext } from "@modelcontextprotocol/server";
import { cancelTask, findCapability, getTask, isTerminal, scopeFor, ServiceError, type Core, type Grant } from "../../core/index.js";
import { toolSuccess } from "../results.js";
import { taskOutcome } from "../tools/task-outcome.js";
import type { ToolNameStyle } from "../tools/tool-names.js";
import type { ToolCall } from "../tools/types.js";
import type { TaskBackend } from "./extension.js";
import type { DetailedTask, WireTaskStatus } from "./wire.js";

type TaskEnvelope = Awaited<ReturnType<typeof getTask>>;

// Our task row is the extension's store: its id is the taskId; queued and running are working. A failed task
// is a tool that ran and reported an error, so it is completed with isError; the extension's failed is for
// JSON-RPC errors, which a task of ours never ends with.
function wireStatus(status: string): WireTaskStatus {
  if (status === "succeeded" || status === "failed") return "completed";
  if (status === "canceled") return "cancelled";
  return "working";
}

const DAY_MS = 24 * 60 * 60 * 1000;
// A host polls at about this fraction of the capability's deadline (the longest its model may take), within these
// bounds: a second for speech, a few for images, several for video.
const POLL_DEADLINE_FRACTION = 1 / 300;
const MIN_POLL_MS = 1000;
const MAX_POLL_MS = 10_000;

function pollIntervalMs(task: TaskEnvelope): number {
  const deadlineSeconds = findCapability(task.capability)?.deadlineSeconds ?? 600;
  return Math.round(Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, deadlineSeconds * 1000 * POLL_DEADLINE_FRACTION)));
}

function lastUpdatedAt(task: TaskEnvelope): string {
  const times = [task.created_at, task.started_at, task.cancel_requested_at, task.completed_at].filter((t): t is string => t !== null);
  return times.reduce((latest, t) => (t > latest ? t : latest));
}

// What the host may show beside the task: where it is, or how it ended, in words for a person.
function statusMessage(task: TaskEnvelope): string {
  const progress = task.progress as { percent?: number; message?: string } | null;
  if (task.status === "queued") return "Waiting to start.";
  if (task.status === "running") {
    const percent = progress?.percent !== undefined ? ` ${progress.percent}%` : "";
    const detail = progress?.message ? `: ${progress.message}` : "";
    return task.cancel_requested_at ? `Stopping${percent}.` : `Running${percent}${detail}.`;
  }
  if (task.status === "succeeded") return "Finished.";
  if (task.status === "failed") return `Failed: ${task.error?.message ?? "the model reported an error"}.`;
  return "Canceled.";
}

// The service's tasks as the extension sees them, for the caller of one MCP request: bound to the caller's
// tenant, and to a scope that lets the caller read it (tasks:read, or the write scope of the area that made it).
export class ServiceTasks implements TaskBackend {
  constructor(
    private readonly core: Core,
    private readonly grant: () => Promise<Grant>,
    private readonly requestId: () => string,
    private readonly toolNames: ToolNameStyle,
  ) {}

  private call(grant: Grant, ctx: ServerContext): ToolCall {
    return {
      core: this.core,
      grant,
      requestId: this.requestId(),
      toolNames: this.toolNames,
      signal: ctx.mcpReq.signal,
      progress: async () => undefined,
    };
  }

  private mayReach(grant: Grant, task: TaskEnvelope, access: "read" | "write"): boolean {
    const capability = findCapability(task.capability);
    const scopes = [scopeFor("tasks", access), ...(capability ? [scopeFor(capability.area, "write")] : [])];
    return scopes.some((scope) => grant.scopes.includes(scope));
  }

  // The task, or undefined when the caller has none by that id: unknown and foreign ids answer alike.
  private async find(grant: Grant, taskId: string, access: "read" | "write"): Promise<TaskEnvelope | undefined> {
    try {
      const task = await getTask(this.core, grant.tenantId, taskId);
      return this.mayReach(grant, task, access) ? task : undefined;
    } catch (error) {
      if (error instanceof ServiceError && error.code === "task_not_found") return undefined;
      throw error;
    }
  }

  // The final CallToolResult is what svc.tasks.get answers once the task has ended: the task, its artifacts as
  // links and its images as thumbnails; a failed task's is an error result.
  private async finalResult(call: ToolCall, task: TaskEnvelope): Promise<CallToolResult> {
    const result = toolSuccess(await taskOutcome(call, task, { thumbnails: true }));
    return task.status === "failed" ? { ...result, isError: true } : result;
  }

  async wireTask(task: TaskEnvelope, call?: ToolCall): Promise<DetailedTask> {
    const status = wireStatus(task.status);
    return {
      taskId: task.task_id,
      status,
      statusMessage: statusMessage(task),
      createdAt: task.created_at ?? new Date().toISOString(),
      lastUpdatedAt: lastUpdatedAt(task),
      // The task row stays; its artifacts are kept this long, after which the result's links answer 410.
      ttlMs: this.core.config.artifactRetentionDays * DAY_MS,
      ...(isTerminal(task.status) ? {} : { pollIntervalMs: pollIntervalMs(task) }),
      ...(status === "completed" && call ? { result: await this.finalResult(call, task) } : {}),
    };
  }

  async get(taskId: string, ctx: ServerContext): Promise<DetailedTask | undefined> {
    const grant = await this.grant();
    const task = await this.find(grant, taskId, "read");
    return task && this.wireTask(task, this.call(grant, ctx));
  }

  // SPEC.md's three cancel outcomes all acknowledge: a queued task is canceled at once, a running one is stopped
  // at the vendor, and one whose model cannot stop runs on to its end, which tasks/get then shows.
  async cancel(taskId: string): Promise<boolean> {
    const grant = await this.grant();
    if (!(await this.find(grant, taskId, "write"))) return false;
    try {
      await cancelTask(this.core, grant.tenantId, taskId, "canceled by the MCP host (tasks/cancel)");
    } catch (error) {
      if (!(error instanceof ServiceError && error.code === "conflict")) throw error;
    }
    return true;
  }

  // No task of ours ever waits on input, so there is never an outstanding key: responses are ignored.
  async update(taskId: string): Promise<boolean> {
    const grant = await this.grant();
    return (await this.find(grant, taskId, "read")) !== undefined;
  }
}
