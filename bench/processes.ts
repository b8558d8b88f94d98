import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The processes a benchmark run starts: each a plain `node <file>.js` of the compiled tree (`npm run bench` builds it
// and runs from it, as a deployment runs the service), so the pid is the process that does the work (its memory is
// what gets sampled). Every one is stopped when the run ends, however it ends.

// The compiled tree this module runs from (dist/), and the project folder around it.
const CODE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const PROJECT_ROOT = path.basename(CODE_ROOT) === "dist" ? path.dirname(CODE_ROOT) : CODE_ROOT;
const OUTPUT_TAIL_CHARS = 4000;
const STOP_GRACE_MS = 5000;

export interface BenchProcess {
  name: string;
  pid: number;
  // Everything the process wrote to stdout, for processes that answer with a line of JSON.
  stdout(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export function launch(name: string, file: string, env: Record<string, string | undefined>): BenchProcess {
  const profile = process.env.BENCH_CPU_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${path.join(process.env.BENCH_CPU_PROFILE_DIR, name.replace(/\W+/g, "-"))}`] : [];
  const entry = path.join(CODE_ROOT, file.replace(/\.ts$/, ".js"));
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run the benchmark with \`npm run bench\`, which builds it`);
  const child = spawn(process.execPath, [...profile, entry], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  running.add(child);
  let stdout = "";
  let stderrTail = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderrTail = (stderrTail + chunk).slice(-OUTPUT_TAIL_CHARS)));
  let stopping = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      running.delete(child);
      if (!stopping && code !== 0) console.error(`[bench] ${name} exited with ${code}:\n${stderrTail}`);
      resolve(code);
    }),
  );
  return {
    name,
    pid: child.pid,
    stdout: () => stdout,
    exited,
    async stop() {
      if (!running.has(child)) return;
      stopping = true;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
      await exited;
      clearTimeout(killer);
    },
  };
}

export async function waitForHttp(url: string, owner: BenchProcess, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let exited = false;
  void owner.exited.then(() => (exited = true));
  while (Date.now() < until && !exited) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${owner.name} did not answer ${url} ${exited ? "(it exited)" : `within ${timeoutMs} ms`}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
