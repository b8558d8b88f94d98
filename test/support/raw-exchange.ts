import { connect } from "node:net";
import type { ApiResponse } from "./harness.js";

export interface RawAnswer {
  status: number;
  // Header names in lower case.
  headers: Record<string, string>;
  // The JSON body, or its text when it is not JSON (which an envelope check then fails on).
  body: ApiResponse["body"];
}

// A request written byte for byte on its own connection, as fetch would not send it (malformed lines, oversized
// headers, odd encodings); written, not ended: the server answers and closes, and the whole answer is read.
export function rawExchange(baseUrl: string, request: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", text = ""] = Buffer.concat(chunks).toString("utf8").split("\r\n\r\n", 2);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
      let body: unknown = text || null;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: body as ApiResponse["body"] });
    });
  });
}
