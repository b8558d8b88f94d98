import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, renameSync, rmSync } from "node:fs";
import { chmod, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eventually } from "../support/wait.js";

// Claude Code as a person runs it, installed from npm at a pinned version into a cache folder outside the
// repository (a native binary of some 400 MB, fetched once per machine), each use with a home folder of its own.
// Its browser is a script handing the URL to the test, which plays the person at a headless Chromium; its model is
// whatever ANTHROPIC_BASE_URL names (a stand-in on loopback, test/oauth/model-stand-in.ts).

export const CLAUDE_CODE_VERSION = "2.1.332";
const INSTALL_DIR = path.join(tmpdir(), `svc-test-claude-code-${CLAUDE_CODE_VERSION}`);
const BINARY = path.join(INSTALL_DIR, "node_modules", ".bin", "claude");

// Installed into a folder of this process's own, then renamed into place: test files running side by side may
// both install, and a folder in place is always a whole installation.
export function installClaudeCode(): string {
  if (!existsSync(BINARY)) {
    const own = `${INSTALL_DIR}.${process.pid}`;
    execFileSync("npm", ["install", "--prefix", own, "--no-save", "--no-audit", "--no-fund", `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], { stdio: "pipe" });
    try {
      renameSync(own, INSTALL_DIR);
    } catch (error) {
      // Another file's installation got there first.
      rmSync(own, { recursive: true, force: true });
      if (!existsSync(BINARY)) throw error;
    }
  }
  const version = execFileSync(BINARY, ["--version"], { encoding: "utf8" });
  if (!version.startsWith(CLAUDE_CODE_VERSION)) throw new Error(`expected Claude Code ${CLAUDE_CODE_VERSION}, got ${version}`);
  return BINARY;
}

export interface Run {
  code: number | null;
  output: string;
}

export interface ClaudeCode {
  home: string;
  // Runs `claude <args>` to its end, stdin closed.
  run(args: string[]): Promise<Run>;
  // `claude -p <text>` in JSON, its model the Messages API at `modelBaseUrl`, with one tool allowed without asking.
  prompt(text: string, modelBaseUrl: string, allowedTool: string): Promise<Run>;
  // Runs `claude <args>` in a pseudo-terminal (script(1)), for commands that refuse to work without one and for
  // the interactive session a person types into; `extraEnv` is added to its environment.
  runInTerminal(args: string[], extraEnv?: Record<string, string>): { exited: Promise<Run>; output(): string; child: ChildProcess };
  // The next URL Claude Code asks the browser to open.
  nextOpenedUrl(timeoutMs: number): Promise<string>;
}

function collect(child: ChildProcess): { exited: Promise<Run>; output(): string; child: ChildProcess } {
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  return { exited: new Promise((resolve) => child.once("close", (code) => resolve({ code, output }))), output: () => output, child };
}

const shellQuote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

// `baseEnv` is added to every command's environment.
export async function claudeCode(binary: string, baseEnv: Record<string, string> = {}): Promise<ClaudeCode> {
  const home = await mkdtemp(path.join(tmpdir(), "claude-code-home-"));
  const openedFile = path.join(home, "opened-urls");
  const browser = path.join(home, "browser");
  await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> ${shellQuote(openedFile)}\n`);
  await chmod(browser, 0o755);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    BROWSER: browser,
    // No update checks, telemetry or other traffic of its own.
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    ...baseEnv,
  };
  const opened = async () => (await readFile(openedFile, "utf8").catch(() => "")).split("\n").filter(Boolean);
  let seen = 0;
  const run = (args: string[], extraEnv: Record<string, string> = {}) =>
    collect(spawn(binary, args, { cwd: home, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] })).exited;
  return {
    home,
    run,
    prompt(text, modelBaseUrl, allowedTool) {
      return run(["-p", text, "--allowedTools", allowedTool, "--output-format", "json"], {
        ANTHROPIC_BASE_URL: modelBaseUrl,
        ANTHROPIC_API_KEY: "stand-in",
        // Every tool in the model's request, none deferred behind a search tool.
        ENABLE_TOOL_SEARCH: "false",
      });
    },
    runInTerminal(args, extraEnv = {}) {
      const command = `stty cols 200 rows 50; exec ${[binary, ...args].map(shellQuote).join(" ")}`;
      // stdin stays an open pipe: script(1) ends when its input does.
      return collect(spawn("script", ["-qfec", command, "/dev/null"], { cwd: home, env: { ...env, ...extraEnv }, stdio: ["pipe", "pipe", "pipe"] }));
    },
    async nextOpenedUrl(timeoutMs) {
      const url = await eventually("Claude Code to open the browser", timeoutMs, async () => (await opened())[seen]);
      seen += 1;
      return url;
    },
  };
}
