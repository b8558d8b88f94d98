import { useEffect, useState } from "preact/hooks";
import { api, query } from "./api";
import { ErrorView } from "./error-view";
import { TaskView } from "./task-view";
import type { CapabilitySummary, Page, TaskEnvelope } from "./types";

// The task list (GET /v1/tasks) with its status and capability filters and cursor paging; a task opens below with
// its envelope, callback state and actions.

const STATUSES = ["queued", "running", "succeeded", "failed", "canceled"];
const PAGE_SIZE = 20;

export function HistoryPage() {
  const [capabilities, setCapabilities] = useState<CapabilitySummary[]>([]);
  const [status, setStatus] = useState("");
  const [capability, setCapability] = useState("");
  // The cursors of the pages before this one, for Previous; undefined is the first page.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState<Page<TaskEnvelope> | null>(null);
  const [open, setOpen] = useState<TaskEnvelope | null>(null);
  const [error, setError] = useState<unknown>(null);
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    api<{ data: CapabilitySummary[] }>("GET", "/v1/catalog/capabilities").then((list) => setCapabilities(list.data), setError);
  }, []);

  useEffect(() => {
    setError(null);
    api<Page<TaskEnvelope>>("GET", `/v1/tasks${query({ status, capability, limit: PAGE_SIZE, cursor })}`).then(setPage, setError);
  }, [status, capability, cursor]);

  const filter = (set: (value: string) => void) => (event: Event) => {
    set((event.currentTarget as HTMLSelectElement).value);
    setCursors([undefined]);
  };

  const openTask = async (taskId: string) => {
    try {
      setOpen(await api<TaskEnvelope>("GET", `/v1/tasks/${encodeURIComponent(taskId)}`));
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section aria-labelledby="history-title">
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
              <option value={c.id}>{c.id}</option>
            ))}
          </select>
        </div>
      </div>
      <ErrorView error={error} />
      {page && (
        <div class="table-scroll">
          <table class="tasks">
            <caption>Tasks, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Capability</th>
                <th scope="col">Status</th>
                <th scope="col">Model</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((t) => (
                <tr>
                  <td>
                    <button type="button" class="link" onClick={() => openTask(t.task_id)}>
                      {t.task_id}
                    </button>
                  </td>
                  <td>{t.capability}</td>
                  <td>{t.status}</td>
                  <td>{t.resolved_model ?? t.model}</td>
                  <td>{new Date(t.created_at).toLocaleString()}</td>
                </tr>
              ))}
              {page.data.length === 0 && (
                <tr>
                  <td colSpan={5}>No tasks match.</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <div class="actions">
        <button type="button" class="secondary" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>
        <button type="button" class="secondary" disabled={!page?.has_more || !page.next_cursor} onClick={() => page?.next_cursor && setCursors([...cursors, page.next_cursor])}>
          Next page
        </button>
      </div>
      {open && <TaskView key={open.task_id} initial={open} />}
    </section>
  );
}
