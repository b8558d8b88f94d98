import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, utimesSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "../../bin/build.js";

// A fresh checkout of this repository, as a new user has one: its own folder and no .data/, with the compiled
// dist/ of this tree (built here first when stale) and node_modules linked rather than installed again. The
// TypeScript sources stay out: the copy's dist/ is what it runs, and `svc` finds nothing newer to rebuild.
const ROOT = path.resolve(import.meta.dirname, "../..");

export function makeCheckout(parent = tmpdir()): string {
  build({ onlyIfStale: path.join("scripts", "start.js") });
  const dir = mkdtempSync(path.join(parent, "svc-checkout-"));
  for (const file of ["package.json", "tsconfig.json", "tsconfig.build.json"]) cpSync(path.join(ROOT, file), path.join(dir, file));
  cpSync(path.join(ROOT, "bin"), path.join(dir, "bin"), { recursive: true });
  cpSync(path.join(ROOT, "migrations"), path.join(dir, "migrations"), { recursive: true });
  cpSync(path.join(ROOT, "dist"), path.join(dir, "dist"), { recursive: true, filter: (source) => !source.endsWith(".build-lock") });
  const now = new Date();
  utimesSync(path.join(dir, "dist", ".build-stamp"), now, now);
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// The ports of one stack, free when asked for.
export async function stackPorts(): Promise<Record<string, string>> {
  const [rest, mcp, worker, emulator, embedded] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  return { PORT: String(rest), MCP_PORT: String(mcp), WORKER_PORT: String(worker), EMULATOR_PORT: String(emulator), EMBEDDED_PG_PORT: String(embedded) };
}

// What a shell hands a command: no service settings unless a test adds them.
export function shellEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...extra };
}

export interface Stack {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  // Resolves when the output contains `text`; rejects if the process ends first or after `timeoutMs`.
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  // A terminal's Ctrl-C: SIGINT to the whole process group of `npm start`.
  interrupt(): void;
}

// `npm start` after its build step: `node dist/scripts/start.js` in the checkout, leading a process group of its own;
// or the command given (`npm start` itself, build included).
export function startStack(checkout: string, env: Record<string, string>, command = [process.execPath, path.join(checkout, "dist", "scripts", "start.js")]): Stack {
  const [program, ...args] = command as [string, ...string[]];
  const child = spawn(program, args, {
    cwd: checkout,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let text = "";
  const listeners = new Set<() => void>();
  const collect = (chunk: string) => {
    text += chunk;
    for (const listener of listeners) listener();
  };
  child.stdout?.setEncoding("utf8").on("data", collect);
  child.stderr?.setEncoding("utf8").on("data", collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      resolve({ code, signal });
      for (const listener of listeners) listener();
    }),
  );
  return {
    child,
    output: () => text,
    exited,
    waitFor(expected, timeoutMs = 180_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = typeof expected === "string" ? text.includes(expected) : expected.test(text);
          if (found) done(resolve);
          else if (child.exitCode !== null || child.signalCode !== null) done(() => reject(new Error(`npm start ended before "${expected}":\n${text}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`no "${expected}" within ${timeoutMs} ms:\n${text}`))), timeoutMs);
        const done = (finish: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          finish();
        };
        listeners.add(check);
        check();
      });
    },
    interrupt() {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGINT");
    },
  };
}

export function makeDirectory(parent: string, name: string, mode: number): string {
  const dir = path.join(parent, name);
  mkdirSync(dir, { mode });
  return dir;
}
