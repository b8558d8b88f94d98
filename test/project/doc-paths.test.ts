import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The paths the README and docs/ name in backticks, under the checkout's own folders, are there: a pointer to a
// test or source file that was renamed or never written sends a reader nowhere. `*` stands for any characters
// within one part of a path, and must match at least one entry.
const ROOT = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["bench", "bin", "cli", "client", "console", "core", "docs", "emulator", "http-face", "mcp-app", "mcp-server", "migrations", "rest-server", "scripts", "test", "worker"];
const MAX_DOCS = 200;

function documents(): string[] {
  const docs = readdirSync(path.join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join("docs", name));
  expect(docs.length).toBeLessThan(MAX_DOCS);
  return ["README.md", ...docs];
}

function matches(dir: string, parts: string[]): boolean {
  const [part, ...rest] = parts;
  if (part === undefined || part === "") return true;
  if (!part.includes("*")) return existsSync(path.join(dir, part)) && matches(path.join(dir, part), rest);
  const pattern = new RegExp(`^${part.split("*").map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return false;
  }
  return entries.some((entry) => pattern.test(entry) && matches(path.join(dir, entry), rest));
}

describe("paths named in the docs", () => {
  it("exist in the checkout", () => {
    const missing: string[] = [];
    for (const doc of documents()) {
      const text = readFileSync(path.join(ROOT, doc), "utf8");
      for (const [, named] of text.matchAll(/`([a-z][\w.*/-]*)`/g)) {
        const candidate = named as string;
        if (!candidate.includes("/") || !FOLDERS.includes(candidate.split("/")[0] as string)) continue;
        if (!matches(ROOT, candidate.split("/"))) missing.push(`${doc}: ${candidate}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
