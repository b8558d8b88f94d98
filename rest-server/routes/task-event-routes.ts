import type { FastifyInstance } from "fastify";
import { openTaskEventStream, parseLastEventId, type Core, type TaskStreamEvent } from "../../core/index.js";
import { principalOf } from "../plugins/auth.js";
import { requestLog } from "../../http-face/request-log.js";
import type { HandWrittenHandler, HandWrittenRoutes } from "./hand-written-route.js";

// A comment line this often keeps proxies and clients from taking a quiet stream for a dead one.
const HEARTBEAT_MS = 15_000;
// How long a client waits before reconnecting (with Last-Event-ID) after the connection drops.
const RETRY_MS = 2_000;

function frame(event: TaskStreamEvent): string {
  const id = "id" in event ? `id: ${event.id}\n` : "";
  return `${id}event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

// GET /v1/tasks/{task_id}/events: the task's changes as server-sent events until it ends (core/tasks/
// task-event-stream.ts). Errors before the first byte (auth, rate limit, task_not_found) are ordinary JSON
// errors; after it, the stream is the answer. Open streams are ended when the server closes.
export function taskEventRoutes(app: FastifyInstance, core: Core): HandWrittenRoutes<"streamTaskEvents"> {
  const open = new Set<() => void>();
  app.addHook("preClose", async () => {
    for (const end of [...open]) end();
  });

  const handler: HandWrittenHandler<"streamTaskEvents"> = async (request, reply) => {
    const lastEventId = parseLastEventId(request.headers["last-event-id"] as string | undefined);
    const stream = await openTaskEventStream(core, principalOf(request).tenantId, request.params.task_id, lastEventId);
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    });
    response.write(`retry: ${RETRY_MS}\n\n`);
    const heartbeat = setInterval(() => response.write(": heartbeat\n\n"), HEARTBEAT_MS);
    const end = () => stream.close();
    open.add(end);
    response.once("close", end);
    try {
      for await (const event of stream.events) response.write(frame(event));
    } catch (error) {
      requestLog(request).error({ err: error }, "task event stream failed");
    } finally {
      clearInterval(heartbeat);
      open.delete(end);
      response.off("close", end);
      response.end();
    }
  };
  return { streamTaskEvents: { handler } };
}
