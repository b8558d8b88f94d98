import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxMessageBytes } from "../../mcp-server/message-size.js";
import { CLIENT_KINDS, connectClient } from "./clients.js";
import { postRawMcp, startMcpHarness, toolError, type McpHarness } from "./support.js";

// Uploads through POST /v1/assets and svc.assets.upload: the same body, rules and answer on both surfaces.

const LIMIT = 4096;

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness({ env: { ASSET_UPLOAD_MAX_BYTES: String(LIMIT) } });
});
afterAll(async () => m?.close());

// Bytes that sniff as WAV (RIFF…WAVE), padded to a size: uploads take media only.
const wavOf = (size: number) => Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4, 1), Buffer.from("WAVE"), Buffer.alloc(size - 12, 1)]);
const wav = wavOf(64);
const png = Buffer.concat([Buffer.from([0x89]), Buffer.from("PNG\r\n\x1a\n"), Buffer.alloc(24)]);

async function download(url: string) {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get("content-type"), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("POST /v1/assets", () => {
  it("stores the bytes as the tenant's artifact and answers its reference with a signed URL", async () => {
    const response = await m.h.request("POST", "/v1/assets", { body: { content_base64: wav.toString("base64"), filename: "sample.wav" } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      object: "artifact",
      type: "artifact",
      kind: "audio",
      content_type: "audio/wav",
      byte_size: wav.length,
      sha256: createHash("sha256").update(wav).digest("hex"),
      filename: "sample.wav",
    });
    expect(response.body.artifact_id).toMatch(/^art_/);
    const fetched = await download(response.body.url);
    expect(fetched).toMatchObject({ status: 200, type: "audio/wav" });
    expect(fetched.bytes.equals(wav)).toBe(true);
  });

  it("stores the type sniffed from the bytes, and refuses bytes that are not media", async () => {
    const typed = await m.h.request("POST", "/v1/assets", { body: { content_base64: png.toString("base64"), content_type: "image/png" } });
    expect(typed.body).toMatchObject({ kind: "image", content_type: "image/png", byte_size: png.length, filename: null });
    const text = await m.h.request("POST", "/v1/assets", { body: { content_base64: "aGVsbG8=" } });
    expect(text.status).toBe(422);
    expect(text.body.error.code).toBe("unsupported_media_type");
  });

  it("refuses what is not base64, a bad media type and unknown fields with param", async () => {
    const notBase64 = await m.h.request("POST", "/v1/assets", { body: { content_base64: "not base64!" } });
    expect(notBase64.status).toBe(422);
    expect(notBase64.body.error).toMatchObject({ code: "invalid_request", param: "/content_base64" });
    const badType = await m.h.request("POST", "/v1/assets", { body: { content_base64: "aGVsbG8=", content_type: "audio" } });
    expect(badType.body.error.param).toBe("/content_type");
    const unknown = await m.h.request("POST", "/v1/assets", { body: { content_base64: "aGVsbG8=", url: "https://x" } });
    expect(unknown.body.error.param).toBe("/url");
  });

  it("refuses more than ASSET_UPLOAD_MAX_BYTES with 413 media_too_large, and takes exactly the limit", async () => {
    const over = await m.h.request("POST", "/v1/assets", { body: { content_base64: Buffer.alloc(LIMIT + 1).toString("base64") } });
    expect(over.status).toBe(413);
    expect(over.body.error).toMatchObject({ code: "media_too_large", param: "/content_base64", details: { max_bytes: LIMIT } });
    const exact = await m.h.request("POST", "/v1/assets", { body: { content_base64: wavOf(LIMIT).toString("base64") } });
    expect(exact.status).toBe(201);
    expect(exact.body.byte_size).toBe(LIMIT);
  });

  it("needs the assets area", async () => {
    const tenant = await m.h.newTenant("1", ["tasks"]);
    const response = await m.h.request("POST", "/v1/assets", { apiKey: tenant.apiKey, body: { content_base64: "aGVsbG8=" } });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe("forbidden");
  });
});

describe("svc.assets.upload", () => {
  it("answers the same artifact reference, with a resource link instead of the bytes", async () => {
    const client = await m.connect({ protocol: "2026-07-28" });
    const result = await client.callTool({ name: "svc.assets.upload", arguments: { content_base64: wav.toString("base64"), filename: "voice.wav" } });
    expect(result.isError).toBeFalsy();
    const asset = result.structuredContent as { artifact_id: string; url: string; type: string };
    expect(asset).toMatchObject({ type: "artifact", kind: "audio", byte_size: wav.length });
    const link = (result.content as { type: string; uri?: string }[]).find((c) => c.type === "resource_link");
    expect(link?.uri).toBe(`svc://artifacts/${asset.artifact_id}`);
    const resource = await client.readResource({ uri: link!.uri! });
    expect(Buffer.from((resource.contents[0] as { blob: string }).blob, "base64").equals(wav)).toBe(true);
    expect((await download(asset.url)).bytes.equals(wav)).toBe(true);
  });

  it("refuses an oversized upload in REST's vocabulary, and a credential without assets:write", async () => {
    const client = await m.connect();
    const tooLarge = toolError(await client.callTool({ name: "svc.assets.upload", arguments: { content_base64: Buffer.alloc(LIMIT + 3).toString("base64") } }));
    expect(tooLarge).toMatchObject({ code: "media_too_large", param: "/content_base64", jsonrpc_code: -32602 });
    const readOnly = await m.connect({ credential: await m.token({ scopes: ["tasks:read"] }) });
    const refused = toolError(await readOnly.callTool({ name: "svc.assets.upload", arguments: { content_base64: "aGVsbG8=" } }));
    expect(refused).toMatchObject({ code: "insufficient_scope", missing_scopes: ["assets:write"] });
  });
});

describe("an MCP message past the size limit", () => {
  it("is answered as the call it is: media_too_large at the field that held the media, for every client", async () => {
    const limit = maxMessageBytes(m.h.core.config);
    const content = Buffer.alloc(Math.ceil((limit * 3) / 4) + 3).toString("base64");
    expect(content.length).toBeGreaterThan(limit);
    for (const kind of CLIENT_KINDS) {
      const client = await connectClient(kind, m.url, m.h.apiKey);
      try {
        const error = toolError(await client.callTool("svc.assets.upload", { content_base64: content, filename: "big.wav" }));
        expect(error, kind).toMatchObject({
          code: "media_too_large",
          param: "/content_base64",
          jsonrpc_code: -32602,
          details: { max_bytes: LIMIT, max_message_bytes: limit, received_bytes: content.length },
        });
        // The connection still serves the next call.
        expect((await client.callTool("svc.assets.upload", { content_base64: wav.toString("base64") })).isError, kind).toBeFalsy();
      } finally {
        await client.close();
      }
    }
  }, 60_000);

  it("past four times the limit is refused at the HTTP level with a JSON-RPC error carrying media_too_large", async () => {
    const limit = maxMessageBytes(m.h.core.config);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "svc.assets.upload", arguments: { content_base64: "A".repeat(4 * limit) } },
    });
    const response = await postRawMcp(m, body);
    expect(response.status).toBe(413);
    const answer = (await response.json()) as { id: unknown; error: { code: number; data: { error: { code: string; details: unknown } } } };
    expect(answer).toMatchObject({ id: null, error: { code: -32000, data: { error: { code: "media_too_large", details: { max_message_bytes: limit } } } } });
  });
});
