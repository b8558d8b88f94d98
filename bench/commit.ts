import { execFileSync } from "node:child_process";
import { PROJECT_ROOT } from "./processes.js";

// The commit a run measured, so that its figures can be put beside the code they came from; a checkout with
// changes besides says how many files differ (bench/RESULTS.md, which the run rewrites, aside).
export function checkoutCommit(): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: PROJECT_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    const commit = git("rev-parse", "--short", "HEAD");
    const changed = git("status", "--porcelain", "--untracked-files=no")
      .split("\n")
      .filter((line) => line !== "" && !line.endsWith("bench/RESULTS.md")).length;
    return changed === 0 ? commit : `${commit} (with ${changed} changed files besides)`;
  } catch {
    return "an unknown commit (not a git checkout)";
  }
}
