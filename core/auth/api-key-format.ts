import { hash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = /^sk_([a-z]{2,8})_([0-9A-Za-z]{32})$/;

// A key reads `sk_<region>_<32 base62 characters>`; the region prefix lets any server refuse a foreign key
// without a database lookup.
export function generateApiKey(region: string): string {
  const bytes = randomBytes(32);
  let secret = "";
  for (const byte of bytes) secret += BASE62[byte % 62];
  return `sk_${region}_${secret}`;
}

export function parseApiKey(token: string): { region: string } | null {
  const match = KEY_PATTERN.exec(token);
  return match ? { region: match[1] as string } : null;
}

export function hashApiKey(key: string): string {
  return hash("sha256", key, "hex");
}

export function displayPrefix(key: string): string {
  return `${key.slice(0, key.lastIndexOf("_") + 5)}…`;
}
