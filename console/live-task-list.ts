import { useEffect, useRef, useState } from "preact/hooks";
import { isTerminal } from "../client/src/types.js";
import { api, operationRoute, query } from "./api";
import { followTask } from "./task-events";
import type { Task, TaskList } from "./types";

// A page of the task list (GET /v1/tasks) that keeps itself current: its first open task is followed on its event
// stream (status and progress as they change, then the final envelope with its results), and the page is read
// again every few seconds while the tab is visible, which brings tasks created elsewhere (another tab, the API,
// an agent) and the ends of the other open tasks. One stream at most, and none while a task is open beside the
// list (its view follows its own): each stream holds one of the six connections a browser opens to this origin,
// shared by all its tabs, and a console open in a few tabs must leave some for its requests. The task list has no
// stream of its own.

const REREAD_MS = 3_000;

export interface TaskListQuery {
  status: string;
  capability: string;
  cursor: string | undefined;
  limit: number;
}

export function useLiveTaskList(filters: TaskListQuery, streams: 0 | 1): { page: TaskList | null; error: unknown } {
  const [page, setPage] = useState<TaskList | null>(null);
  const [error, setError] = useState<unknown>(null);
  const following = useRef(new Map<string, AbortController>());
  const listQuery = { status: filters.status, capability: filters.capability, limit: filters.limit, cursor: filters.cursor };
  // The list is read again when its query string changes.
  const search = query(listQuery);

  useEffect(() => {
    let stopped = false;
    const read = () =>
      api<TaskList>(operationRoute("listTasks"), { query: listQuery }).then(
        (next) => {
          if (stopped) return;
          setPage(next);
          setError(null);
        },
        (e: unknown) => !stopped && setError(e),
      );
    void read();
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void read();
    }, REREAD_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [search]);

  const open = (page?.data ?? []).filter((t) => !isTerminal(t)).slice(0, streams).map((t) => t.task_id);
  const openKey = open.join(",");
  useEffect(() => {
    const active = following.current;
    for (const [taskId, abort] of active) {
      if (!open.includes(taskId)) {
        abort.abort();
        active.delete(taskId);
      }
    }
    const replace = (taskId: string, change: (task: Task) => Task) =>
      setPage((current) => current && { ...current, data: current.data.map((t) => (t.task_id === taskId ? change(t) : t)) });
    for (const taskId of open) {
      if (active.has(taskId)) continue;
      const abort = new AbortController();
      active.set(taskId, abort);
      followTask(taskId, (c) => replace(taskId, (t) => ({ ...t, status: c.status as Task["status"], progress: c.progress })), abort.signal).then(
        (final) => replace(taskId, () => final),
        () => undefined,
      );
    }
  }, [openKey]);

  useEffect(
    () => () => {
      for (const abort of following.current.values()) abort.abort();
    },
    [],
  );

  return { page, error };
}
