import { request as httpRequest, type ClientRequest } from "node:http";

export interface HalfSentRequest {
  // Sends the rest of the body.
  finish(): void;
  // The answer, or the error of a connection cut before one.
  response: Promise<{ status: number; body: string }>;
  request: ClientRequest;
}

// A POST whose body arrives in two parts: between them the server holds the request in flight.
export function halfSentPost(url: string, headers: Record<string, string>, body: unknown): HalfSentRequest {
  const bytes = Buffer.from(JSON.stringify(body));
  const target = new URL(url);
  let request!: ClientRequest;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": String(bytes.length) },
      },
      (answer) => {
        let text = "";
        answer.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body: text }));
      },
    );
    request.on("error", reject);
  });
  request.write(bytes.subarray(0, 10));
  return { finish: () => request.end(bytes.subarray(10)), response, request };
}
