import { spawn } from "node:child_process";
import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import ffprobeInstaller from "@ffprobe-installer/ffprobe";

export const ffmpegPath: string = ffmpegInstaller.path;
export const ffprobePath: string = ffprobeInstaller.path;

export class MediaToolError extends Error {
  readonly tool: string;
  readonly exitCode: number | null;
  readonly stderr: string;

  constructor(tool: string, exitCode: number | null, stderr: string) {
    super(`${tool} exited with ${exitCode === null ? "a signal" : `code ${exitCode}`}: ${stderr.trim() || "(no output)"}`);
    this.name = "MediaToolError";
    this.tool = tool;
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

// Runs ffmpeg with `input` on stdin (address it as `-i pipe:0`) and resolves with whatever it wrote to stdout
// (address it as `pipe:1`); an output file named in `args` leaves stdout empty.
export function runFfmpeg(args: string[], input?: Buffer): Promise<Buffer> {
  const stdinArgs = input === undefined ? ["-nostdin"] : [];
  return runMediaTool("ffmpeg", ffmpegPath, ["-hide_banner", "-loglevel", "error", ...stdinArgs, ...args], input);
}

export function runFfprobe(args: string[], input?: Buffer): Promise<Buffer> {
  return runMediaTool("ffprobe", ffprobePath, ["-hide_banner", ...args], input);
}

function runMediaTool(tool: string, binary: string, args: string[], input: Buffer | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: "pipe" });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(stdout));
      else reject(new MediaToolError(tool, code, Buffer.concat(stderr).toString("utf8")));
    });
    // A tool that rejects its input exits before reading all of it; the exit code reports that, not EPIPE.
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}
