import { execFile } from "node:child_process";
import path from "node:path";
import { build } from "../../bin/build.js";

// `svc` as a real child process: `node <checkout>/bin/svc.js …`, as a user or a desktop host runs it.
const ROOT = path.resolve(import.meta.dirname, "../..");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

// Compiles once before a file's first call (tsc takes tens of seconds on a loaded machine), so no call waits on it.
export function ensureBuilt(): void {
  build({ onlyIfStale: path.join("cli", "main.js") });
}

export function svc(args: string[], options: { env: Record<string, string | undefined>; cwd?: string; checkout?: string; timeoutMs?: number }): Promise<CliResult> {
  const checkout = options.checkout ?? ROOT;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(checkout, "bin", "svc.js"), ...args],
      { cwd: options.cwd ?? checkout, env: options.env, timeout: options.timeoutMs ?? 180_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}
