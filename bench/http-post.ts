import http from "node:http";

// One POST through node:http on `agent` (kept alive by the caller): the leanest client Node has, for timings where
// the client's own time would blur the server's.
export function postJson(url: string, headers: Record<string, string>, body: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, agent }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}
