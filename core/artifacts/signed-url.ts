import { createHmac, timingSafeEqual } from "node:crypto";

// Artifact URLs are the service's "CDN addresses": anyone holding one may download until it expires, with no
// API key. Expiry is rounded up to the hour so the same task renders the same URL for an hour of polling.
export class ArtifactUrlSigner {
  constructor(
    private readonly baseUrl: string,
    private readonly secret: string,
    private readonly ttlSeconds: number,
  ) {}

  private signature(artifactId: string, expires: number): string {
    return createHmac("sha256", this.secret).update(`${artifactId}.${expires}`).digest("base64url");
  }

  sign(artifactId: string, now: Date): { url: string; expiresAt: Date } {
    const expires = Math.ceil((now.getTime() / 1000 + this.ttlSeconds) / 3600) * 3600;
    const url = `${this.baseUrl}/v1/artifacts/${artifactId}/content?expires=${expires}&signature=${this.signature(artifactId, expires)}`;
    return { url, expiresAt: new Date(expires * 1000) };
  }

  verify(artifactId: string, expires: string, signature: string, now: Date): "ok" | "expired" | "invalid" {
    if (!/^\d{1,12}$/.test(expires)) return "invalid";
    const expected = Buffer.from(this.signature(artifactId, Number(expires)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
    return Number(expires) * 1000 < now.getTime() ? "expired" : "ok";
  }
}
