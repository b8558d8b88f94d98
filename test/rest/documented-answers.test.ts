import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";

// Every JSON answer of the service, success or refusal, is what /v1/openapi.json says it is for that path, method
// and status: the response schemas are checked against real answers (extra fields included, since the documented
// objects admit none), so a generated client's types hold.
let h: Harness;
let document: { paths: Record<string, Record<string, { responses: Record<string, Response> }>> };
let ajv: Ajv2020;

interface Response {
  content?: Record<string, unknown>;
  headers?: Record<string, unknown>;
}

beforeAll(async () => {
  h = await startHarness({ worker: true, credits: "100" });
  document = (await h.request("GET", "/v1/openapi.json")).body;
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: "https://openapi.local/document", ...document });
});
afterAll(async () => h?.close());

const validators = new Map<string, ValidateFunction>();

// The documented answer for a concrete path: the template whose pattern matches it, and a JSON Pointer to the
// answer's schema for that status in the document.
function documented(method: string, path: string, status: number): { pointer: string | undefined; headers: string[] } | null {
  const bare = path.split("?")[0]!;
  for (const [template, operations] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`);
    const operation = operations[method.toLowerCase()];
    if (!pattern.test(bare) || !operation) continue;
    const response = operation.responses[String(status)];
    if (!response) return null;
    const escaped = encodeURIComponent(template.replace(/~/g, "~0").replace(/\//g, "~1"));
    const pointer = response.content?.["application/json"]
      ? `#/paths/${escaped}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`
      : undefined;
    return { pointer, headers: Object.keys(response.headers ?? {}) };
  }
  return null;
}

async function check(problems: string[], method: string, path: string, options: Parameters<Harness["request"]>[2] = {}) {
  const response = await h.request(method, path, options);
  const answer = documented(method, path, response.status);
  const shown = `${method} ${path} → ${response.status}`;
  if (!answer) return problems.push(`${shown}: status not documented`), response;
  if (!answer.pointer) return problems.push(`${shown}: no JSON schema documented`), response;
  const ref = `https://openapi.local/document${answer.pointer}`;
  let validate = validators.get(ref);
  if (!validate) validators.set(ref, (validate = ajv.compile({ $ref: ref })));
  if (!validate(response.body)) problems.push(`${shown}: ${ajv.errorsText(validate.errors)}`);
  for (const name of ["X-Request-Id", ...(response.headers.has("x-ratelimit-limit") ? ["X-RateLimit-Limit"] : [])]) {
    if (!answer.headers.includes(name)) problems.push(`${shown}: header ${name} not documented`);
  }
  return response;
}

describe("answers as documented", () => {
  it("every JSON route answers its documented schema, successes and refusals alike", async () => {
    const problems: string[] = [];
    const speech = { voice: "en_female_aria", input: "Documented answers." };
    const created = await check(problems, "POST", "/v1/audio/speech", { idempotencyKey: "documented-1", body: speech });
    const taskId = created.body.task_id as string;
    await waitForTask(h, taskId, ["succeeded"]);
    const task = await check(problems, "GET", `/v1/tasks/${taskId}`);
    await check(problems, "GET", "/v1/tasks?limit=5");
    await check(problems, "GET", "/v1/tasks?idempotency_key=documented-1");
    await check(problems, "GET", `/v1/tasks/${taskId}/assets`);
    await check(problems, "POST", `/v1/tasks/${taskId}/cancel`, { body: {} });
    await check(problems, "GET", "/v1/tasks/task_unknown");
    await check(problems, "GET", "/v1/tasks?limit=0");
    await check(problems, "POST", "/v1/quotes", { body: { capability: "text_to_speech", ...speech } });
    await check(problems, "POST", "/v1/audio/speech", { idempotencyKey: "documented-2", body: { ...speech, voice: "no_such_voice" } });

    await check(problems, "GET", "/v1/credits");
    await check(problems, "GET", "/v1/voices?limit=2");
    await check(problems, "GET", "/v1/voices/en_female_aria");
    await check(problems, "DELETE", "/v1/voices/en_female_aria");

    const audio = Buffer.from(await (await fetch(task.body.output.artifacts[0].url)).arrayBuffer());
    await check(problems, "POST", "/v1/assets", { body: { content_base64: audio.toString("base64"), filename: "hello.wav" } });

    await check(problems, "GET", "/v1/models");
    await check(problems, "GET", "/v1/catalog/models");
    const model = task.body.resolved_model as string;
    await check(problems, "GET", `/v1/catalog/models/${model}`);
    await check(problems, "GET", "/v1/catalog/capabilities");
    await check(problems, "GET", "/v1/catalog/capabilities/text_to_speech");
    await check(problems, "GET", "/v1/catalog/capabilities/no_such_capability");

    const key = await check(problems, "POST", "/v1/callback-signing-keys", { body: { name: "documented" } });
    await check(problems, "GET", "/v1/callback-signing-keys");
    await check(problems, "GET", `/v1/callback-signing-keys/${key.body.id}`);
    await check(problems, "POST", `/v1/callback-signing-keys/${key.body.id}/rotate`, { body: { grace_period_seconds: 60 } });
    await check(problems, "POST", `/v1/callback-signing-keys/${key.body.id}/retire`);

    await check(problems, "GET", "/v1/credits", { apiKey: null });
    await check(problems, "GET", "/healthz", { apiKey: null });
    expect(problems).toEqual([]);
  }, 120_000);

  it("documents objects closed: an answer with a field the document lacks would not pass", async () => {
    const credits = (await h.request("GET", "/v1/credits")).body;
    const validate = ajv.compile({ $ref: "https://openapi.local/document#/components/schemas/CreditBalance" });
    expect(validate(credits)).toBe(true);
    expect(validate({ ...credits, undocumented: 1 })).toBe(false);
  });
});
