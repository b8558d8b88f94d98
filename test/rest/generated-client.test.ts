import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";

// A new user's first program: a client generated from /v1/openapi.json with openapi-typescript, used through
// openapi-fetch to create a speech task, poll it to its end and download its artifact, and to read a refusal's
// error.code as the catalogue's union. It must type-check under strict tsc with no cast, then run against the
// service. Everything generated lives in a temporary directory.
const PROGRAM = `import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type ErrorCode = components["schemas"]["Error"]["code"];
type Task = components["schemas"]["TaskEnvelope"];

// error.code is a union of the catalogue's codes, not a string: a made-up code does not fit.
// @ts-expect-error not an error code of the catalogue
export const notACode: ErrorCode = "no_such_code";

function advice(code: ErrorCode): string {
  switch (code) {
    case "insufficient_balance":
      return "add credits";
    case "rate_limited":
      return "wait for Retry-After";
    default:
      return code;
  }
}

const client = createClient<paths>({ baseUrl: process.env.BASE_URL, headers: { Authorization: \`Bearer \${process.env.API_KEY}\` } });

async function createSpeech(voice: string, key: string): Promise<Task | ErrorCode> {
  const { data, error } = await client.POST("/v1/audio/speech", {
    params: { header: { "Idempotency-Key": key } },
    body: { voice, input: "Typed all the way down." },
  });
  return error ? error.error.code : data;
}

async function untilEnded(task: Task): Promise<Task> {
  let current = task;
  while (current.status === "queued" || current.status === "running") {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const { data, error } = await client.GET("/v1/tasks/{task_id}", { params: { path: { task_id: current.task_id } } });
    if (error) throw new Error(advice(error.error.code));
    current = data;
  }
  return current;
}

const created = await createSpeech("en_female_aria", \`generated-client-\${process.pid}\`);
if (typeof created === "string") throw new Error(advice(created));
const ended = await untilEnded(created);
const artifact = ended.output?.artifacts[0];
const download = artifact ? await fetch(artifact.url) : null;
const bytes = download ? (await download.arrayBuffer()).byteLength : 0;
const credits = await client.GET("/v1/credits");
const voice = await client.GET("/v1/voices/{voice_id}", { params: { path: { voice_id: "no_such_voice" } } });
// Each route's refusals name only its own codes: reading a voice never answers insufficient_balance.
// @ts-expect-error not a code this route answers
export const notThisRoute: NonNullable<typeof voice.error>["error"]["code"] = "insufficient_balance";
const refused = await createSpeech("no_such_voice", \`generated-client-refused-\${process.pid}\`);
console.log(
  JSON.stringify({
    status: ended.status,
    contentType: artifact?.content_type,
    bytes,
    byteSize: artifact?.byte_size,
    available: credits.data?.available_credits,
    refused,
    voiceRefused: voice.error?.error.code,
  }),
);
`;

const run = promisify(execFile);
const bin = (name: string) => join(process.cwd(), "node_modules/.bin", name);

let h: Harness;
let directory: string;
beforeAll(async () => {
  h = await startHarness({ worker: true, credits: "100" });
  directory = await mkdtemp(join(tmpdir(), "generated-client-"));
  await symlink(join(process.cwd(), "node_modules"), join(directory, "node_modules"), "dir");
});
afterAll(async () => {
  await h?.close();
  if (directory) await rm(directory, { recursive: true, force: true });
});

describe("a client generated from /v1/openapi.json", () => {
  it("type-checks create → poll → download with no cast and runs against the service", async () => {
    const document = await h.request("GET", "/v1/openapi.json");
    await writeFile(join(directory, "openapi.json"), JSON.stringify(document.body));
    await writeFile(join(directory, "package.json"), JSON.stringify({ type: "module" }));
    await writeFile(join(directory, "program.ts"), PROGRAM);
    await run(bin("openapi-typescript"), ["openapi.json", "--output", "schema.d.ts"], { cwd: directory });

    const compiled = await run(
      bin("tsc"),
      ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", "program.ts"],
      { cwd: directory },
    ).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
    expect(compiled).toBe("");

    const { stdout } = await run(bin("tsx"), ["program.ts"], {
      cwd: directory,
      env: { ...process.env, BASE_URL: h.baseUrl, API_KEY: h.apiKey },
    });
    const result = JSON.parse(stdout.trim().split("\n").pop()!);
    expect(result).toMatchObject({ status: "succeeded", refused: "voice_not_found", voiceRefused: "voice_not_found" });
    expect(result.bytes).toBeGreaterThan(0);
    expect(result.bytes).toBe(result.byteSize);
    expect(result.contentType).toMatch(/^audio\//);
    expect(result.available).toMatch(/^\d+\.\d{6}$/);
  }, 180_000);
});
