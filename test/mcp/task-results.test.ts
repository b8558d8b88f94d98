import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "./support.js";

// What a task costs the model to read: a create's answer says how to follow the task, and a finished task's
// answer is small (no progress or null error once it has ended, no URL repeated in the links).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

// The bound for a finished video's answer, the whole tools/call result as JSON.
const FINISHED_VIDEO_MAX_BYTES = 4000;

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness();
});
afterAll(async () => m?.close());

const texts = (result: Any): string[] => (result.content as Any[]).filter((c) => c.type === "text").map((c) => c.text as string);

describe("task results", () => {
  it("answers a create with the task and how to follow it, in the connection's naming", async () => {
    await m.h.stopWorker();
    try {
      for (const [url, name] of [
        [m.url, "svc.tasks.get (svc_tasks_get)"],
        [`${m.url}/underscore`, "svc_tasks_get"],
      ] as const) {
        const client = await m.connect({ url });
        const created = await client.callTool({
          name: "svc_speech_synthesize",
          arguments: { client_request_id: randomUUID(), voice: "en_female_aria", input: "Follow me." },
        });
        const task = created.structuredContent as Any;
        expect(task).toMatchObject({ status: "queued" });
        expect(task.error).toBeUndefined();
        const [json, hint] = texts(created);
        expect(JSON.parse(json!)).toEqual(task);
        expect(hint).toContain(`Poll ${name} with this task_id`);
        expect(hint).toContain(task.task_id);
        expect(hint).toMatch(/never resubmit/);
      }
    } finally {
      await m.h.startWorker();
    }
  });

  it(`answers a finished video in under ${FINISHED_VIDEO_MAX_BYTES} bytes, its link without the URL the output holds`, async () => {
    const client = await m.connect();
    const created = await client.callTool({ name: "svc.videos.generate", arguments: { client_request_id: randomUUID(), prompt: "A paper boat drifting." } });
    const taskId = (created.structuredContent as Any).task_id;
    let done: Any;
    for (let i = 0; i < 4 && (done?.structuredContent as Any)?.status !== "succeeded"; i++) {
      done = await client.callTool({ name: "svc.tasks.get", arguments: { task_id: taskId, wait_seconds: 30 } });
    }
    const task = done.structuredContent as Any;
    expect(task.status).toBe("succeeded");
    const bytes = Buffer.byteLength(JSON.stringify(done));
    console.log(`finished video: ${bytes} bytes as a tools/call result, ${Buffer.byteLength(texts(done).join(""))} bytes of text`);
    expect(bytes).toBeLessThan(FINISHED_VIDEO_MAX_BYTES);
    expect(Object.keys(task)).not.toContain("progress");
    expect(Object.keys(task)).not.toContain("error");
    expect(task.billing.charged_credits).toBe(task.billing.net_charged_credits);
    expect(task.billing.refunded_credits).toBeUndefined();
    const artifact = task.output.artifacts[0];
    expect(artifact.url).toMatch(/^http/);
    const link = (done.content as Any[]).find((c) => c.type === "resource_link");
    expect(link).toMatchObject({ uri: `svc://artifacts/${artifact.artifact_id}`, mimeType: "video/mp4", size: artifact.byte_size });
    expect(link.description).toMatch(/^video, \d+ bytes/);
    expect(link.description).not.toContain("http");
    // Nothing but the task once it has ended: no hint to keep polling.
    expect(texts(done)).toHaveLength(1);
  }, 150_000);
});
