// The request the form stands at, written for the three ways a program reaches the service, so a person who got
// the result they wanted takes it to their code as it is: curl (the key read from $SVC_API_KEY, as the README's
// examples do; the Idempotency-Key is the one this body would be sent with, so a repeated run answers the same
// task), the TypeScript client (the README's import; `run` creates and waits), and the MCP tools/call message (the
// tool the capability's card names, the body's fields as its arguments, client_request_id the same key).

export const KEY_VARIABLE = "SVC_API_KEY";

export interface RequestCode {
  curl: string;
  typescript: string;
  mcp: string;
}

// A POSIX shell's single quotes hold anything but a single quote, which closes, is escaped and reopens them.
function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function requestCode(input: { origin: string; path: string; capability: string; toolName: string; body: Record<string, unknown>; key: string }): RequestCode {
  const { origin, path, capability, toolName, body, key } = input;
  const json = JSON.stringify(body, null, 2);
  const curl = [
    `curl -sS -X POST ${shellQuoted(`${origin}${path}`)}`,
    `  -H "Authorization: Bearer $${KEY_VARIABLE}"`,
    `  -H 'Content-Type: application/json'`,
    `  -H ${shellQuoted(`Idempotency-Key: ${key}`)}`,
    // Whitespace between JSON's tokens is free: the body indented under its flag.
    `  --data-binary ${shellQuoted(json.replace(/\n/g, "\n  "))}`,
  ].join(" \\\n");
  const typescript = [
    `import { createClient } from "@media-task-service/client";`,
    ``,
    `const svc = createClient({ baseUrl: ${JSON.stringify(origin)}, apiKey: process.env.${KEY_VARIABLE} ?? "" });`,
    `// Creates the task (retried with one Idempotency-Key), then waits for its end.`,
    `const task = await svc.run(${JSON.stringify(capability)}, ${json});`,
    `console.log(task.task_id, task.status, JSON.stringify(task.output));`,
    ``,
  ].join("\n");
  const mcp = JSON.stringify(
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: toolName, arguments: { client_request_id: key, ...body } } },
    null,
    2,
  );
  return { curl, typescript, mcp };
}
