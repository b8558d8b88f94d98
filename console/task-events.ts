import { api, authHeaders, operationRoute, refusalOf, ServiceError } from "./api";
import type { Task } from "./types";

// A task's live progress from GET /v1/tasks/{id}/events. EventSource cannot send an Authorization header, so the
// stream is read with fetch (the key stays in the header, never in a URL) and parsed here: `status` and
// `progress` events as the task changes, then `task` with the final envelope, after which the stream ends. A
// dropped connection resumes after the last event id (Last-Event-ID), as EventSource would.

export interface TaskChange {
  status: string;
  progress: Task["progress"];
}

const RECONNECT_MS = 2_000;

interface Frame {
  id?: string;
  event: string;
  data: string;
}

function parseFrame(block: string): Frame | null {
  const frame: Frame = { event: "message", data: "" };
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") frame.event = value;
    else if (field === "data") data.push(value);
    else if (field === "id") frame.id = value;
  }
  frame.data = data.join("\n");
  return data.length > 0 ? frame : null;
}

// Reads one connection; answers the final envelope, or null when the connection ended before it.
async function readStream(taskId: string, lastEventId: { value?: string }, onChange: (change: TaskChange) => void, signal: AbortSignal) {
  const headers: Record<string, string> = { ...authHeaders(), Accept: "text/event-stream" };
  if (lastEventId.value) headers["Last-Event-ID"] = lastEventId.value;
  const response = await fetch(operationRoute("streamTaskEvents", { task_id: taskId }).path, { headers, signal });
  if (!response.ok || !response.body) throw refusalOf(response, await response.json().catch(() => null));
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return null;
    buffer += value.replace(/\r\n?/g, "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const frame = parseFrame(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (!frame) continue;
      if (frame.id) lastEventId.value = frame.id;
      const data = JSON.parse(frame.data) as TaskChange & Task;
      if (frame.event === "task") {
        await reader.cancel();
        return data as Task;
      }
      onChange({ status: data.status, progress: data.progress });
    }
  }
}

export async function followTask(taskId: string, onChange: (change: TaskChange) => void, signal: AbortSignal): Promise<Task> {
  const lastEventId: { value?: string } = {};
  for (;;) {
    try {
      const final = await readStream(taskId, lastEventId, onChange, signal);
      if (final) return final;
    } catch (error) {
      if (signal.aborted || error instanceof ServiceError) throw error;
    }
    const task = await api<Task>(operationRoute("getTask", { task_id: taskId }), { signal });
    if (["succeeded", "failed", "canceled"].includes(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}
