import { createServer, request as forward } from "node:http";

// A loopback proxy in front of the MCP endpoint that passes every request and answer through unchanged and keeps
// the JSON-RPC messages a host POSTed, so a test can read what a closed host (Claude Code) actually sends.

export interface RecordedMessage {
  method?: string;
  params?: Record<string, unknown>;
  // The HTTP headers the message came with (lower-case names).
  headers: Record<string, string | string[] | undefined>;
}

export interface RecordingProxy {
  url: string;
  messages: RecordedMessage[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const messages: RecordedMessage[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      if (incoming.method === "POST" && body.length > 0) {
        try {
          const parsed = JSON.parse(body.toString("utf8")) as unknown;
          for (const message of Array.isArray(parsed) ? parsed : [parsed]) messages.push({ ...(message as object), headers: incoming.headers });
        } catch {
          // Not JSON: passed on for the server to refuse.
        }
      }
      const headers = { ...incoming.headers, host: upstream.host };
      const proxied = forward({ hostname: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      proxied.on("error", () => outgoing.destroy());
      proxied.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no port");
  return {
    url: `http://127.0.0.1:${address.port}${upstream.pathname}`,
    messages,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
