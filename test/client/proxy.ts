import { createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A real HTTP proxy on loopback between the client and the service, failing requests the way networks and
// gateways do, as a test scripts it: answering for the service, losing the service's answer after the request
// was served, or cutting an event stream after its first event. It records every request it was sent.

export type Plan =
  | { kind: "pass" }
  | { kind: "answer"; status: number; headers?: Record<string, string>; body: unknown }
  | { kind: "lose-answer" }
  | { kind: "cut-after-first-event" };

export interface ProxiedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface Proxy {
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

function relay(target: URL, request: IncomingMessage, response: ServerResponse, plan: Plan): void {
  const upstream = forward(
    { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: { ...request.headers, host: target.host } },
    (answer) => {
      if (plan.kind === "lose-answer") {
        // The service did the work; the caller never hears of it.
        answer.resume().on("end", () => response.socket?.destroy());
        return;
      }
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      if (plan.kind === "pass") {
        answer.pipe(response);
        return;
      }
      let seen = "";
      let cut = false;
      answer.setEncoding("utf8").on("data", (chunk: string) => {
        if (cut) return;
        seen += chunk;
        const end = seen.search(/event: \w+\n[^\n]*\n\n/);
        if (end < 0) return void response.write(chunk);
        const through = seen.indexOf("\n\n", end) + 2;
        cut = true;
        response.write(seen.slice(seen.length - chunk.length, through), () => {
          answer.destroy();
          response.socket?.destroy();
        });
      });
    },
  );
  upstream.on("error", () => response.socket?.destroy());
  request.pipe(upstream);
}

export async function startProxy(target: string, plan: (request: ProxiedRequest, index: number) => Plan): Promise<Proxy> {
  const requests: ProxiedRequest[] = [];
  const server = createServer((request, response) => {
    const recorded = { method: request.method ?? "", url: request.url ?? "", headers: request.headers };
    const chosen = plan(recorded, requests.length);
    requests.push(recorded);
    if (chosen.kind === "answer") {
      request.resume().on("end", () => {
        response.writeHead(chosen.status, { "content-type": "application/json", ...chosen.headers });
        response.end(JSON.stringify(chosen.body));
      });
      return;
    }
    relay(new URL(target), request, response, chosen);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
