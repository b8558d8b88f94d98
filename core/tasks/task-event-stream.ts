import type { ReadSql } from "../db/client.js";
import { ServiceError } from "../errors/index.js";
import { toEnvelope, type TaskEnvelope } from "./envelope.js";
import { envelopeContext, getTask, type EnvelopeRuntime } from "./read.js";
import { isTerminal } from "../db/task-state-machine.js";
import type { TaskChangeHub } from "./task-changes.js";
import { taskRowOf } from "../db/task-rows.js";

// The parts of the runtime a stream uses: the process's task changes, the reads of the task and its recorded
// changes, and what its envelope is written with.
export interface TaskStreamRuntime extends EnvelopeRuntime {
  reads: ReadSql;
  taskChanges: Pick<TaskChangeHub, "subscribe">;
}

// One event of GET /v1/tasks/{id}/events. `status` and `progress` carry the task's state after a change, with
// the change's sequence number as their id (what Last-Event-ID resumes after); `task` is the final envelope, sent
// once the task has ended, after which the stream ends.
export type TaskStreamEvent =
  | { event: "status" | "progress"; id: string; data: { task_id: string; status: string; progress: unknown } }
  | { event: "task"; data: TaskEnvelope };

interface StoredEvent {
  seq: string;
  kind: "status" | "progress";
  status: string;
  progress: unknown;
}

const EVENTS_PER_READ = 100;

// Ordered by the table's column, qualified: a bare `seq` would name the text output column and send 10 before 9.
async function eventsAfter(core: TaskStreamRuntime, taskId: string, after: string): Promise<StoredEvent[]> {
  return core.reads<StoredEvent[]>`
    select seq::text as seq, kind, status, progress from task_events
     where task_id = ${taskId} and seq > ${after}::bigint order by task_events.seq limit ${EVENTS_PER_READ}`;
}

// The task and the number of its last recorded change, read in one statement (one snapshot): a change committed
// meanwhile is either in both or in neither, so the stream neither repeats nor loses it.
async function taskWithLastSeq(core: TaskStreamRuntime, tenantId: string, taskId: string): Promise<{ task: TaskEnvelope; seq: string }> {
  const rows = await core.reads`
    select t.*, coalesce((select max(e.seq) from task_events e where e.task_id = t.id), 0)::text as last_event_seq
      from tasks t where t.id = ${taskId} and t.tenant_id = ${tenantId}`;
  const raw = rows[0];
  if (!raw) throw new ServiceError("task_not_found", `No task ${taskId}.`, { details: { task_id: taskId } });
  return { task: toEnvelope(taskRowOf(raw), envelopeContext(core)), seq: String(raw.last_event_seq) };
}

// A Last-Event-ID this stream could have sent: a non-negative integer.
export function parseLastEventId(value: string | undefined): string | undefined {
  return value !== undefined && /^\d{1,19}$/.test(value.trim()) ? value.trim() : undefined;
}

export interface TaskEventStream {
  events: AsyncGenerator<TaskStreamEvent>;
  close(): void;
}

// Opens a task's stream: task_not_found (unknown or foreign id) is thrown here, before any event, so a surface can
// answer it as an ordinary error. The changes are those the trigger of migrations/0008 recorded, read in order
// after the last one sent, so each is delivered once however the notifications that wake the stream are grouped;
// without Last-Event-ID the stream starts with the task's state as it stands.
export async function openTaskEventStream(core: TaskStreamRuntime, tenantId: string, taskId: string, lastEventId: string | undefined): Promise<TaskEventStream> {
  let pending = false;
  let closed = false;
  let wake: (() => void) | null = null;
  const unsubscribe = await core.taskChanges.subscribe(taskId, () => {
    pending = true;
    wake?.();
  });
  const close = () => {
    closed = true;
    unsubscribe();
    wake?.();
  };
  let snapshot: { task: TaskEnvelope; seq: string };
  try {
    snapshot = await taskWithLastSeq(core, tenantId, taskId);
  } catch (error) {
    close();
    throw error;
  }

  async function* events(): AsyncGenerator<TaskStreamEvent> {
    try {
      const { task } = snapshot;
      let after = lastEventId;
      if (after === undefined) {
        after = snapshot.seq;
        yield { event: "status", id: after, data: { task_id: taskId, status: task.status, progress: task.progress } };
        if (isTerminal(task.status)) return yield { event: "task", data: task };
      }
      while (!closed) {
        pending = false;
        const batch = await eventsAfter(core, taskId, after);
        for (const stored of batch) {
          after = stored.seq;
          yield { event: stored.kind, id: stored.seq, data: { task_id: taskId, status: stored.status, progress: stored.progress } };
        }
        if (batch.length === EVENTS_PER_READ) continue;
        const ended = batch.some((stored) => isTerminal(stored.status)) || (batch.length === 0 && isTerminal(task.status));
        if (ended) return yield { event: "task", data: await getTask(core, tenantId, taskId) };
        if (!pending && !closed) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    } finally {
      close();
    }
  }

  return { events: events(), close };
}
