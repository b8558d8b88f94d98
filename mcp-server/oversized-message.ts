import type { Readable } from "node:stream";
import { JSON_MAX_DEPTH } from "../core/index.js";

// An MCP message larger than the server takes (an upload past the size limit, a create with a large data URI)
// is answered like any other call, so the client reads media_too_large with the field to fix instead of an
// HTTP error its SDK cannot place. The body is read as a stream and rewritten on the way: every string longer
// than ELIDE_ABOVE_BYTES is replaced by {"svc/elided_bytes": <its length>}, so what is kept is the message's
// structure (its id, method, tool name and small arguments) in bounded memory, and the tool call that carried
// the string is refused where it names it (mcp-server/server.ts).

export const ELIDED_KEY = "svc/elided_bytes";

// No text an MCP message needs (a prompt, a speech input) is this long: longer strings are media.
const ELIDE_ABOVE_BYTES = 1024 * 1024;

export interface ElisionLimits {
  // What the rewritten message may keep, and what may be read of the body before giving up on it.
  keptMaxBytes: number;
  readMaxBytes: number;
}

export type ElidedMessage = { message: unknown } | { refused: "too_large" | "not_json" };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// UTF-8 never puts a quote or a backslash byte inside a multi-byte character, so strings are found byte by byte.
class Rewriter {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private inString = false;
  private escaped = false;
  // The current string, from its opening quote, while it is short enough to keep.
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private elided = false;

  constructor(private readonly keptMax: number) {}

  get overflowed(): boolean {
    return this.keptBytes > this.keptMax;
  }

  private keep(bytes: Buffer): void {
    this.keptBytes += bytes.length;
    // Copied, so a kept piece does not hold on to the whole chunk it came in.
    if (!this.overflowed) this.kept.push(Buffer.from(bytes));
  }

  private hold(bytes: Buffer): void {
    this.pendingBytes += bytes.length;
    if (this.elided) return;
    this.pending.push(Buffer.from(bytes));
    if (this.pendingBytes > ELIDE_ABOVE_BYTES) {
      this.elided = true;
      this.pending = [];
    }
  }

  private endString(): void {
    if (this.elided) this.keep(Buffer.from(JSON.stringify({ [ELIDED_KEY]: this.pendingBytes - 2 })));
    else for (const part of this.pending) this.keep(part);
    this.pending = [];
    this.pendingBytes = 0;
    this.elided = false;
    this.inString = false;
  }

  write(chunk: Buffer): void {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (!this.inString) {
        if (byte !== QUOTE) continue;
        this.keep(chunk.subarray(start, i));
        start = i;
        this.inString = true;
        this.escaped = false;
      } else if (this.escaped) {
        this.escaped = false;
      } else if (byte === BACKSLASH) {
        this.escaped = true;
      } else if (byte === QUOTE) {
        this.hold(chunk.subarray(start, i + 1));
        start = i + 1;
        this.endString();
      }
    }
    if (this.inString) this.hold(chunk.subarray(start));
    else this.keep(chunk.subarray(start));
  }

  text(): string | null {
    if (this.inString || this.overflowed) return null;
    return Buffer.concat(this.kept).toString("utf8");
  }
}

export async function readElidedMessage(body: Readable, limits: ElisionLimits): Promise<ElidedMessage> {
  const rewriter = new Rewriter(limits.keptMaxBytes);
  let read = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    read += bytes.length;
    if (read > limits.readMaxBytes || rewriter.overflowed) return { refused: "too_large" };
    rewriter.write(bytes);
  }
  const text = rewriter.text();
  if (text === null) return { refused: rewriter.overflowed ? "too_large" : "not_json" };
  try {
    return { message: JSON.parse(text) as unknown };
  } catch {
    return { refused: "not_json" };
  }
}

// The first elided string in a tool's arguments, as a JSON Pointer (RFC 6901) and its length. The walk stops at the
// depth arguments may have (core/contracts/json-shape.ts): deeper ones are refused by that bound, at their pointer,
// and a recursion into thousands of levels would overflow the stack first.
export function findElided(value: unknown, pointer = "", depth = 0): { param: string; bytes: number } | null {
  if (value === null || typeof value !== "object" || depth > JSON_MAX_DEPTH) return null;
  const record = value as Record<string, unknown>;
  if (Object.keys(record).length === 1 && typeof record[ELIDED_KEY] === "number") return { param: pointer, bytes: record[ELIDED_KEY] };
  for (const [key, child] of Object.entries(record)) {
    const found = findElided(child, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`, depth + 1);
    if (found) return found;
  }
  return null;
}
