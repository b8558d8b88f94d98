import { connect, type Socket } from "node:net";

// The few Redis replies the limiter reads: integers, strings, nil and arrays of them.
export type RespValue = number | string | null | RespValue[];

export class RedisError extends Error {}

interface Pending {
  resolve(value: RespValue): void;
  reject(error: Error): void;
}

// One connection speaking RESP2 over a plain socket (no client library is installed). Commands are pipelined:
// Redis answers in order, so each reply settles the oldest pending command. A broken connection fails what is
// pending and the next command opens a new one, authenticating and selecting the database from the URL. After a
// failed connection attempt, commands fail at once for a second: an unreachable Redis costs no waiting.
const RECONNECT_AFTER_MS = 1000;

export class RespConnection {
  private socket: Socket | null = null;
  private ready: Promise<void> | null = null;
  private pending: Pending[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private unreachableUntil = 0;

  constructor(
    private readonly url: URL,
    private readonly timeoutMs: number,
  ) {}

  async command(...args: (string | number)[]): Promise<RespValue> {
    if (!this.ready && Date.now() < this.unreachableUntil) throw new RedisError("Redis was unreachable a moment ago");
    this.ready ??= this.open();
    await this.ready;
    return this.send(args);
  }

  close(): void {
    const socket = this.socket;
    this.reset(new RedisError("connection closed"));
    socket?.destroy();
  }

  private async open(): Promise<void> {
    const socket = connect({ host: this.url.hostname, port: Number(this.url.port || 6379) });
    this.socket = socket;
    socket.setNoDelay(true);
    // Events of a socket already replaced (after a time-out) must not fail the commands of its successor.
    socket.on("data", (chunk) => {
      if (this.socket === socket) this.receive(chunk);
    });
    socket.on("error", (error) => {
      if (this.socket === socket) this.reset(error);
    });
    socket.on("close", () => {
      if (this.socket === socket) this.reset(new RedisError("connection to Redis closed"));
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new RedisError(`no connection to Redis within ${this.timeoutMs} ms`)), this.timeoutMs);
        socket.once("connect", () => {
          clearTimeout(timer);
          resolve();
        });
        socket.once("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
      const password = decodeURIComponent(this.url.password);
      if (password) {
        const user = decodeURIComponent(this.url.username);
        await this.send(user ? ["AUTH", user, password] : ["AUTH", password]);
      }
      const database = this.url.pathname.replace(/^\//, "");
      if (database) await this.send(["SELECT", database]);
    } catch (error) {
      const failure = error instanceof RedisError ? error : new RedisError(`cannot reach Redis: ${(error as Error).message}`);
      this.unreachableUntil = Date.now() + RECONNECT_AFTER_MS;
      if (this.socket === socket) this.reset(failure);
      socket.destroy();
      throw failure;
    }
  }

  private send(args: (string | number)[]): Promise<RespValue> {
    const socket = this.socket;
    if (!socket) return Promise.reject(new RedisError("not connected to Redis"));
    const parts = args.map(String);
    const frame = `*${parts.length}\r\n${parts.map((part) => `$${Buffer.byteLength(part)}\r\n${part}\r\n`).join("")}`;
    return new Promise<RespValue>((resolve, reject) => {
      // A reply that does not come in time means the connection cannot be trusted to stay in step: drop it.
      const timer = setTimeout(() => {
        if (this.socket === socket) this.reset(new RedisError(`no answer from Redis within ${this.timeoutMs} ms`));
        socket.destroy();
      }, this.timeoutMs);
      this.pending.push({
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      socket.write(frame);
    });
  }

  private reset(error: Error): void {
    const failed = this.pending;
    this.pending = [];
    this.buffer = Buffer.alloc(0);
    this.socket = null;
    this.ready = null;
    for (const waiter of failed) waiter.reject(error instanceof RedisError ? error : new RedisError(error.message));
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      let parsed: ReturnType<typeof parseReply>;
      try {
        parsed = parseReply(this.buffer, 0);
      } catch (error) {
        const socket = this.socket;
        this.reset(error as Error);
        socket?.destroy();
        return;
      }
      if (!parsed) return;
      this.buffer = this.buffer.subarray(parsed.end);
      const waiter = this.pending.shift();
      if (!waiter) continue;
      if (parsed.value instanceof RedisError) waiter.reject(parsed.value);
      else waiter.resolve(parsed.value);
    }
  }
}

// One complete reply starting at `offset`, or null while more bytes are needed.
function parseReply(buffer: Buffer, offset: number): { value: RespValue | RedisError; end: number } | null {
  const lineEnd = buffer.indexOf("\r\n", offset);
  if (lineEnd < 0) return null;
  const type = String.fromCharCode(buffer[offset] as number);
  const line = buffer.toString("utf8", offset + 1, lineEnd);
  const next = lineEnd + 2;
  switch (type) {
    case "+":
      return { value: line, end: next };
    case "-":
      return { value: new RedisError(line), end: next };
    case ":":
      return { value: Number(line), end: next };
    case "$": {
      const length = Number(line);
      if (length < 0) return { value: null, end: next };
      if (buffer.length < next + length + 2) return null;
      return { value: buffer.toString("utf8", next, next + length), end: next + length + 2 };
    }
    case "*": {
      const count = Number(line);
      if (count < 0) return { value: null, end: next };
      const items: RespValue[] = [];
      let failure: RedisError | null = null;
      let position = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, position);
        if (!item) return null;
        if (item.value instanceof RedisError) failure ??= item.value;
        else items.push(item.value);
        position = item.end;
      }
      return { value: failure ?? items, end: position };
    }
    default:
      throw new RedisError(`unexpected reply type ${JSON.stringify(type)} from Redis`);
  }
}
