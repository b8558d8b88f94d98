import { spawn } from "node:child_process";
import path from "node:path";
export { freePort } from "../support/harness.js";

// A real service process (an entry point a deployment runs), so a fault test can kill it the way a machine dies,
// or keep it running while its database goes away. tsx is loaded into the process itself (its CLI would run the
// entry point in a child process of its own, which a SIGKILL of the CLI leaves running).
const ROOT = path.resolve(import.meta.dirname, "../..");

export interface ServiceProcess {
  // stdout and stderr as they came, for failure messages.
  output(): string;
  running(): boolean;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startServiceProcess(entry: "worker/main.ts" | "rest-server/main.ts", env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks: string[] = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => chunks.push(chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => chunks.push(chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    output: () => chunks.join(""),
    running,
    exited,
    async kill(signal) {
      if (running()) child.kill(signal);
      return exited;
    },
  };
}


export async function eventually<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await check().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
