import { readFileSync } from "node:fs";
import path from "node:path";

// Reads, from docs/SPEC.md itself, the concrete model ids each endpoint accepts (in SPEC order, without `auto`).
// Endpoints for which SPEC.md names no list (image understanding, reference-audio music, prompt enhancement)
// are absent from the result.
export function specModelLists(): Record<string, string[]> {
  const spec = readFileSync(path.resolve(import.meta.dirname, "../../docs/SPEC.md"), "utf8");
  const ids = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string).filter((id) => id !== "auto");
  const lists: Record<string, string[]> = {};

  const imageLine = spec.split("\n").find((l) => l.startsWith("| model | string | Default `auto`; values: `auto`, `vendorE"));
  if (!imageLine) throw new Error("image model line not found in SPEC.md");
  for (const p of ["/v1/images/generations", "/v1/images/image-to-image", "/v1/images/edits"]) lists[p] = ids(imageLine);

  for (const line of spec.split("\n")) {
    const row = /^\| POST (\/v1\/videos\/[a-z-]+) \| ([^|]+) \|/.exec(line);
    if (row) lists[row[1] as string] = ids(row[2] as string);
  }
  const section = (heading: string) => spec.slice(spec.indexOf(heading));
  const firstModelRow = (text: string) => text.split("\n").find((l) => l.startsWith("| model |")) as string;
  lists["/v1/videos/responses"] = ids(firstModelRow(section("**POST /v1/videos/responses**")));
  lists["/v1/music/text-to-music"] = ids(firstModelRow(section("**POST /v1/music/text-to-music**")));
  lists["/v1/audio/speech"] = ids(firstModelRow(section("**POST /v1/audio/speech**")));
  lists["/v1/voices"] = ids(firstModelRow(section("**POST /v1/voices**")));
  return lists;
}

// Every task-creating path SPEC.md names.
export function specTaskPaths(): string[] {
  const spec = readFileSync(path.resolve(import.meta.dirname, "../../docs/SPEC.md"), "utf8");
  const paths = new Set<string>();
  for (const m of spec.matchAll(/POST (\/v1\/(?:images|videos|music|audio|voices)[a-z/-]*)/g)) paths.add(m[1] as string);
  return [...paths].sort();
}
