import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A real HTTP server on loopback standing in for a tenant's callback receiver: it records every request as it
// arrives (raw body included, for signature checks) and answers as the test scripts it.

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  // Date.now() when the request arrived.
  at: number;
}

export interface Answer {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

// `answer(n)` decides the answer to the n-th request (0-based).
export async function startReceiver(answer: (index: number) => Answer = () => ({ status: 200 })): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : null;
      } catch {
        body = rawBody;
      }
      const index = requests.length;
      requests.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers, rawBody, body, at: Date.now() });
      const reply = answer(index);
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
        response.end(reply.body ?? "");
      }, reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async waitForRequests(count, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > until) throw new Error(`receiver got ${requests.length} requests, not ${count}, within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return requests.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
