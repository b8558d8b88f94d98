import { createHash, createHmac } from "node:crypto";
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import type { S3Settings } from "../config.js";
import type { ArtifactStore, ByteRange, OpenedArtifact } from "./store.js";

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();

// An S3-compatible object store (AWS S3, MinIO, R2, Ceph…) spoken directly: path-style URLs and AWS Signature
// Version 4, so artifacts can live apart from any one machine without pulling in an SDK.
export class S3ArtifactStore implements ArtifactStore {
  constructor(private readonly settings: S3Settings) {}

  private objectUrl(key: string): URL {
    const encoded = key.split("/").map(encodeURIComponent).join("/");
    return new URL(`${this.settings.endpoint.replace(/\/+$/, "")}/${this.settings.bucket}/${encoded}`);
  }

  private signedHeaders(method: string, url: URL, payloadHash: string, now: Date): Record<string, string> {
    const amzDate = now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
    const day = amzDate.slice(0, 8);
    const headers: Record<string, string> = {
      host: url.host,
      "x-amz-content-sha256": payloadHash,
      "x-amz-date": amzDate,
    };
    const names = Object.keys(headers).sort();
    const canonicalRequest = [
      method,
      url.pathname,
      "",
      ...names.map((n) => `${n}:${headers[n]}`),
      "",
      names.join(";"),
      payloadHash,
    ].join("\n");
    const scope = `${day}/${this.settings.region}/s3/aws4_request`;
    const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
    const key = hmac(hmac(hmac(hmac(`AWS4${this.settings.secretAccessKey}`, day), this.settings.region), "s3"), "aws4_request");
    const signature = createHmac("sha256", key).update(stringToSign).digest("hex");
    return {
      ...headers,
      authorization: `AWS4-HMAC-SHA256 Credential=${this.settings.accessKeyId}/${scope}, SignedHeaders=${names.join(";")}, Signature=${signature}`,
    };
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const url = this.objectUrl(key);
    const response = await fetch(url, {
      method: "PUT",
      headers: { ...this.signedHeaders("PUT", url, sha256(bytes), new Date()), "content-length": String(bytes.length) },
      body: bytes,
    });
    if (!response.ok) throw new Error(`S3 PUT ${key} answered HTTP ${response.status}: ${await response.text()}`);
  }

  // Streamed from the file with its length and digest known up front, so the request is signed without a
  // second read and the bytes never sit in memory.
  async putFile(key: string, file: string, facts: { size: number; sha256: string }): Promise<void> {
    const url = this.objectUrl(key);
    const response = await fetch(url, {
      method: "PUT",
      headers: { ...this.signedHeaders("PUT", url, facts.sha256, new Date()), "content-length": String(facts.size) },
      body: Readable.toWeb(createReadStream(file)) as ReadableStream,
      duplex: "half",
    } as RequestInit);
    if (!response.ok) throw new Error(`S3 PUT ${key} answered HTTP ${response.status}: ${await response.text()}`);
  }

  async open(key: string, range?: ByteRange): Promise<OpenedArtifact | null> {
    const url = this.objectUrl(key);
    const headers = { ...this.signedHeaders("GET", url, sha256(""), new Date()), ...(range ? { range: `bytes=${range.start}-${range.end}` } : {}) };
    const response = await fetch(url, { headers });
    if (response.status === 404) return null;
    if (!response.ok || !response.body) throw new Error(`S3 GET ${key} answered HTTP ${response.status}`);
    // A server that ignored the range would have the whole object sent as if it were the part asked for.
    if (range && response.status !== 206) {
      await response.body.cancel();
      throw new Error(`S3 GET ${key} answered HTTP ${response.status} to a range request`);
    }
    // A ranged answer gives the whole size after the slash of Content-Range.
    const total = response.status === 206 ? /\/(\d+)$/.exec(response.headers.get("content-range") ?? "")?.[1] : null;
    return {
      stream: Readable.fromWeb(response.body as import("node:stream/web").ReadableStream),
      size: Number(total ?? response.headers.get("content-length") ?? 0),
    };
  }

  async delete(key: string): Promise<void> {
    const url = this.objectUrl(key);
    const response = await fetch(url, { method: "DELETE", headers: this.signedHeaders("DELETE", url, sha256(""), new Date()) });
    if (!response.ok && response.status !== 404) throw new Error(`S3 DELETE ${key} answered HTTP ${response.status}`);
  }
}
