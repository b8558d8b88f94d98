import { createHash, createHmac } from "node:crypto";
import { Readable } from "node:stream";
import type { ArtifactStore } from "./store.js";

export interface S3Settings {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

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

  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    const url = this.objectUrl(key);
    const response = await fetch(url, { headers: this.signedHeaders("GET", url, sha256(""), new Date()) });
    if (response.status === 404) return null;
    if (!response.ok || !response.body) throw new Error(`S3 GET ${key} answered HTTP ${response.status}`);
    return {
      stream: Readable.fromWeb(response.body as import("node:stream/web").ReadableStream),
      size: Number(response.headers.get("content-length") ?? 0),
    };
  }
}
