import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3ArtifactStore } from "../../core/artifacts/s3-store.js";
import { startHarness, waitForTask, type Harness } from "../support/harness.js";

// The S3 artifact store against a real S3-compatible server (s3rver, from npm) that checks SigV4 signatures.
let server: S3rver;
let directory: string;
let endpoint: string;
let h: Harness;

const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "s3rver-"));
  server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: "artifacts", configs: [] }] });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  h = await startHarness({
    worker: true,
    env: {
      ARTIFACT_STORE: "s3",
      S3_ENDPOINT: endpoint,
      S3_BUCKET: "artifacts",
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
  });
});
afterAll(async () => {
  await h?.close();
  await server?.close();
  await rm(directory, { recursive: true, force: true });
});

describe("S3 artifact store", () => {
  it("stores a task's artifact in the bucket and serves it at its signed URL", async () => {
    const created = await h.request("POST", "/v1/audio/speech", {
      idempotencyKey: "s3-1",
      body: { voice: "en_female_aria", input: "Stored in a bucket.", format: "wav", sample_rate: 16000 },
    });
    const task = await waitForTask(h, created.body.task_id, ["succeeded", "failed"]);
    expect(task.status).toBe("succeeded");
    const artifact = task.output.artifacts[0];
    const download = Buffer.from(await (await fetch(artifact.url)).arrayBuffer());
    expect(download.length).toBe(artifact.byte_size);
    expect(download.subarray(0, 4).toString("latin1")).toBe("RIFF");
    const stored = await readdir(path.join(directory, "artifacts"), { recursive: true });
    expect(stored.some((name) => String(name).includes(artifact.artifact_id))).toBe(true);
  });

  it("round-trips bytes, answers null for a missing key and fails loudly on a missing bucket", async () => {
    const store = new S3ArtifactStore({ endpoint, region: "us-east-1", bucket: "artifacts", ...credentials });
    const bytes = Buffer.from("hello from the artifact store");
    await store.put("tenant/x/object.bin", bytes);
    const opened = await store.open("tenant/x/object.bin");
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(bytes);
    expect(opened!.size).toBe(bytes.length);
    expect(await store.open("tenant/x/missing.bin")).toBeNull();
    const elsewhere = new S3ArtifactStore({ endpoint, region: "us-east-1", bucket: "no-such-bucket", ...credentials });
    await expect(elsewhere.put("tenant/x/object.bin", bytes)).rejects.toThrow(/HTTP 404/);
  });
});
