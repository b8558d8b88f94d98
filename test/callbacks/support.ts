import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Harness } from "../support/harness.js";

// What a receiver does with a delivery, written here independently of the service's own signing code (it is the
// README's snippet): HMAC-SHA256 of "<t>.<raw body>" compared in constant time with each v1, within 300 seconds.
export function verifySignature(secret: string, signatureHeader: string, rawBody: string, nowSeconds = Date.now() / 1000): boolean {
  const pairs = signatureHeader.split(",").map((part) => part.split("=", 2) as [string, string]);
  const t = Number(pairs.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest();
  return pairs
    .filter(([k]) => k === "v1")
    .some(([, hex]) => {
      const given = Buffer.from(hex, "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

// The `signatureValid` function of the README's receiver example, taken from the README itself, so the example a
// tenant copies is the one checked against real deliveries.
export function readmeSignatureCheck(secret: string): (header: string | undefined, rawBody: string) => boolean {
  const readme = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
  const example = readme.split("```js")[1]?.split("```")[0] ?? "";
  const start = example.indexOf("function signatureValid");
  const end = example.indexOf("createServer((req");
  if (start < 0 || end < 0) throw new Error("README.md no longer has the receiver example with signatureValid");
  const build = new Function("createHmac", "timingSafeEqual", "SECRET", `${example.slice(start, end)}\nreturn signatureValid;`);
  return build(createHmac, timingSafeEqual, secret);
}

export function signatureParts(header: string): { t: number; v1: string[] } {
  const pairs = header.split(",").map((part) => part.split("=", 2) as [string, string]);
  return { t: Number(pairs.find(([k]) => k === "t")?.[1]), v1: pairs.filter(([k]) => k === "v1").map(([, v]) => v) };
}

export function hmacHex(secret: string, t: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex");
}

// Reads the task until its callback object satisfies `done`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function waitForCallback(h: Harness, taskId: string, done: (callback: any) => boolean, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const response = await h.request("GET", `/v1/tasks/${taskId}`);
    if (response.body?.callback && done(response.body.callback)) return response.body;
    if (Date.now() > until) throw new Error(`task ${taskId} callback is ${JSON.stringify(response.body?.callback)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const SPEECH = { voice: "en_female_aria", input: "A callback test." };
