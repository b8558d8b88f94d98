import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

// Signing secrets at rest: AES-256-GCM under the configured server key, as `v1.<iv>.<tag>.<ciphertext>`
// (base64url). The signing key's id is the additional authenticated data, so a ciphertext copied onto another
// key's row does not decrypt.
const VERSION = "v1";

export function encryptSecret(key: Buffer, secret: string, keyId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(keyId, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

// Throws when the stored value was altered, belongs to another key, or was sealed under another server key.
export function decryptSecret(key: Buffer, sealed: string, keyId: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("unreadable sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(keyId, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

// A signing secret as handed to the tenant: the whole string, UTF-8, is the HMAC key.
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}
