import { useEffect, useState } from "preact/hooks";
import { api, operationRoute } from "./api";
import { capabilityList, capabilityTitle } from "./catalog";
import { ErrorView } from "./error-view";
import { useLiveTaskList } from "./live-task-list";
import { TaskThumbnail } from "./task-thumbnail";
import { TaskView } from "./task-view";
import { costOf, promptOf, when } from "./task-words";
import type { CapabilitySummary, Task } from "./types";

// Your tasks, newest first, live (live-task-list.ts): each with its picture, the start of its prompt, model,
// cost and status; filtered by status and capability, a page at a time. A task opens beside the list on a wide
// screen and alone on a phone, at its own address (#/history/task_…), so it can be bookmarked or shared.

const STATUSES = ["queued", "running", "succeeded", "failed", "canceled"];
const PAGE_SIZE = 20;

function TaskCard({ task, open, titles }: { task: Task; open: boolean; titles: Map<string, string> }) {
  const prompt = promptOf(task);
  return (
    <li class={`task-card${open ? " open" : ""}`} data-task-id={task.task_id} data-status={task.status}>
      <a href={`#/history/${task.task_id}`} aria-current={open ? "true" : undefined}>
        <TaskThumbnail task={task} />
        <span class="task-card-text">
          <span class="task-prompt">{prompt ? (prompt.length > 90 ? `${prompt.slice(0, 90)}…` : prompt) : titles.get(task.capability) ?? task.capability}</span>
          <span class="task-meta">
            <span class={`badge status-${task.status}`}>{task.status}</span> {titles.get(task.capability) ?? task.capability} · {task.resolved_model} ·{" "}
            <span data-cost>{costOf(task)}</span> · {when(task.created_at)}
          </span>
        </span>
      </a>
    </li>
  );
}

function TaskDetail({ taskId, listed }: { taskId: string; listed: Task | undefined }) {
  const [task, setTask] = useState<Task | null>(listed ?? null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (listed) return setTask(listed);
    api<Task>(operationRoute("getTask", { task_id: taskId })).then(setTask, setError);
  }, [taskId]);
  return (
    <section class="task-detail" aria-label="Task">
      <a class="back" href="#/history">
        ← All tasks
      </a>
      <ErrorView error={error} />
      {task && <TaskView key={task.task_id} initial={task} focus />}
    </section>
  );
}

export function HistoryPage({ openTaskId }: { openTaskId: string | undefined }) {
  const [capabilities, setCapabilities] = useState<CapabilitySummary[]>([]);
  const [status, setStatus] = useState("");
  const [capability, setCapability] = useState("");
  // The cursors of the pages before this one, for Previous; undefined is the first page.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const { page, error } = useLiveTaskList({ status, capability, cursor, limit: PAGE_SIZE }, openTaskId ? 0 : 1);
  const titles = new Map(capabilities.map((c) => [c.id, capabilityTitle(c)]));

  useEffect(() => {
    capabilityList().then(setCapabilities, () => undefined);
  }, []);

  const filter = (set: (value: string) => void) => (event: Event) => {
    set((event.currentTarget as HTMLSelectElement).value);
    setCursors([undefined]);
  };

  return (
    <section class={`history${openTaskId ? " has-detail" : ""}`} aria-labelledby="history-title">
      <div class="history-list">
        <h2 id="history-title">History</h2>
        <div class="filters">
          <div class="field">
            <label for="history-status">Status</label>
            <select id="history-status" value={status} onChange={filter(setStatus)}>
              <option value="">any</option>
              {STATUSES.map((s) => (
                <option value={s}>{s}</option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="history-capability">Capability</label>
            <select id="history-capability" value={capability} onChange={filter(setCapability)}>
              <option value="">any</option>
              {capabilities.map((c) => (
                <option value={c.id}>{capabilityTitle(c)}</option>
              ))}
            </select>
          </div>
        </div>
        <ErrorView error={error} />
        {page && (
          <ul class="task-cards" aria-label="Tasks, newest first" aria-live="polite">
            {page.data.map((t) => (
              <TaskCard task={t} open={t.task_id === openTaskId} titles={titles} />
            ))}
            {page.data.length === 0 && <li class="hint">No tasks match.</li>}
          </ul>
        )}
        <div class="actions">
          <button type="button" class="secondary" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
            Newer
          </button>
          <button type="button" class="secondary" disabled={!page?.has_more || !page.next_cursor} onClick={() => page?.next_cursor && setCursors([...cursors, page.next_cursor])}>
            Older
          </button>
        </div>
      </div>
      {openTaskId ? (
        <TaskDetail key={openTaskId} taskId={openTaskId} listed={page?.data.find((t) => t.task_id === openTaskId)} />
      ) : (
        <p class="task-detail-empty hint">Choose a task to see its results and what it cost.</p>
      )}
    </section>
  );
}
