import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { PROJECT_ROOT } from "./processes.js";

// bench/RESULTS.md holds `npm run bench`'s document (before the first `## ` heading) and one `## ` section per
// separate benchmark; each writer replaces only its own part, so no run erases another's figures.
const RESULTS_PATH = path.join(PROJECT_ROOT, "bench", "RESULTS.md");

async function current(): Promise<string> {
  return readFile(RESULTS_PATH, "utf8").catch(() => "");
}

function sectionsOf(text: string): string {
  const first = text.indexOf("\n## ");
  return first < 0 ? "" : text.slice(first + 1);
}

// The main document, keeping every `## ` section already in the file.
export async function writeMainResults(document: string): Promise<string> {
  const sections = sectionsOf(await current());
  await writeFile(RESULTS_PATH, sections ? `${document.trimEnd()}\n\n${sections}` : document);
  return RESULTS_PATH;
}

// One benchmark's section (its text starts with `heading`), replaced in place or appended.
export async function writeResultsSection(heading: string, section: string): Promise<string> {
  const results = await current();
  const start = results.indexOf(heading);
  const next = start < 0 ? -1 : results.indexOf("\n## ", start + heading.length);
  const rest = next < 0 ? "" : `\n${results.slice(next + 1)}`;
  const updated = start < 0 ? `${results.trimEnd()}\n\n${section}` : `${results.slice(0, start)}${section.trimEnd()}\n${rest}`;
  await writeFile(RESULTS_PATH, updated);
  return RESULTS_PATH;
}
