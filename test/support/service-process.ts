import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

// A real service process, an entry point a deployment runs, from its sources. tsx is loaded into the process
// itself (its CLI would run the entry point in a child process of its own, which a SIGKILL of the CLI leaves
// running), so a test can kill it the way a machine dies.
const ROOT = path.resolve(import.meta.dirname, "../..");

export type Entry = "rest-server/main.ts" | "mcp-server/main.ts" | "worker/main.ts";
export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export interface SpawnedEntry {
  child: ChildProcess;
  // stdout and stderr as they came, for failure messages.
  output(): string;
  running(): boolean;
  exited: Promise<Exit>;
  kill(signal: NodeJS.Signals): Promise<Exit>;
}

export function spawnEntry(entry: Entry, env: Record<string, string>): SpawnedEntry {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks: string[] = [];
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => chunks.push(chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => chunks.push(chunk));
  const exited = new Promise<Exit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => chunks.join(""),
    running,
    exited,
    async kill(signal) {
      if (running()) child.kill(signal);
      return exited;
    },
  };
}
