import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { runFfmpeg } from "../../core/media/ffmpeg.js";

// The third parties a soak's tenants point the service at, on one loopback server: media hosts (an image, and one
// that sends a byte a second) and each tenant's callback receiver, which records every delivery it is sent and
// answers as its mode says: `ok` at once, `failing` with a 500, `slow` after 8 s (most of the service's 10 s, so
// each delivery holds its slot that long and still counts).

export type ReceiverMode = "ok" | "failing" | "slow";
const SLOW_ANSWER_MS = 8000;

export interface Delivery {
  tenant: string;
  taskId: string;
  eventId: string;
  eventType: string;
  status: string;
}

export interface Hosts {
  imageUrl: string;
  dripUrl: string;
  hookUrl(tenant: string): string;
  setMode(tenant: string, mode: ReceiverMode): void;
  deliveries: Delivery[];
  close(): Promise<void>;
}

export async function startHosts(): Promise<Hosts> {
  const png = await runFfmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1", "-f", "image2", "-c:v", "png", "pipe:1"]);
  const modes = new Map<string, ReceiverMode>();
  const deliveries: Delivery[] = [];
  const open = new Set<ServerResponse>();

  function receive(tenant: string, request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { event_id: string; event_type: string; task: { task_id: string; status: string } };
      const mode = modes.get(tenant) ?? "ok";
      // Only an answered 2xx counts as delivered; a failing or slow receiver sees the event all the same.
      deliveries.push({ tenant, taskId: event.task.task_id, eventId: event.event_id, eventType: event.event_type, status: event.task.status });
      if (mode === "ok") response.writeHead(204).end();
      else if (mode === "failing") response.writeHead(500).end("receiver down");
      else setTimeout(() => response.destroyed || response.writeHead(204).end(), SLOW_ANSWER_MS);
    });
  }

  const server: Server = createServer((request, response) => {
    open.add(response);
    response.on("close", () => open.delete(response));
    const path = request.url ?? "";
    if (path === "/media/red.png") return void response.writeHead(200, { "content-type": "image/png" }).end(png);
    if (path === "/media/drip.png") {
      response.writeHead(200, { "content-type": "image/png" });
      const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write("x")), 1000);
      return;
    }
    const hook = /^\/hooks\/([\w-]+)$/.exec(path);
    if (request.method === "POST" && hook) return receive(hook[1] as string, request, response);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    imageUrl: `${base}/media/red.png`,
    dripUrl: `${base}/media/drip.png`,
    hookUrl: (tenant) => `${base}/hooks/${tenant}`,
    setMode: (tenant, mode) => void modes.set(tenant, mode),
    deliveries,
    close: () =>
      new Promise((resolve) => {
        for (const response of open) response.destroy();
        server.close(() => resolve());
      }),
  };
}
