import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Writable } from "node:stream";
import { bareHostname, checkUrl, resolveDestination, type OutboundPolicy, type ResolvedAddress } from "./destination.js";
import { OutboundError } from "./outbound-error.js";
import { PaceWatch, type TransferPace } from "./transfer-pace.js";

export interface OutboundRequest {
  method: "GET" | "POST" | "PUT" | "HEAD";
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  // One limit for the whole exchange: resolution, connection, every redirect and the response body.
  timeoutMs: number;
  // How fast each hop must answer and send its body, for callers that must not wait on a slow source.
  pace?: TransferPace;
  maxResponseBytes: number;
  // "fail" (the default) refuses a longer body; "truncate" keeps its first maxResponseBytes and hangs up, for
  // callers that only need the status.
  oversizedBody?: "fail" | "truncate";
  // 0 (the default) answers a 3xx as it is; otherwise each hop is checked like the first.
  maxRedirects?: number;
  signal?: AbortSignal;
  // Where a 2xx body goes instead of memory (a file, for media): written with backpressure, still capped at
  // maxResponseBytes, and ended before the response resolves; `body` is then empty. Other statuses stay in memory.
  sink?: Writable;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  // The URL that answered (after any redirects) and the address it was reached at.
  url: string;
  address: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// Every outbound request the service makes on a caller's behalf (callback deliveries, media fetches) goes through
// here: only http(s) destinations the policy allows, every resolved address checked, the connection made to the
// checked address, redirects only when asked and each one checked again, the body capped, the whole time bounded.
export async function guardedRequest(policy: OutboundPolicy, request: OutboundRequest): Promise<OutboundResponse> {
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
  const abortReason = () =>
    request.signal?.aborted
      ? new OutboundError("aborted", "the request was abandoned by its caller")
      : new OutboundError("timeout", `no complete answer within ${request.timeoutMs} ms`);
  let url = request.url;
  let method = request.method;
  let body = request.body;
  let headers = request.headers;
  for (let hop = 0; ; hop++) {
    const target = checkUrl(url, policy);
    const address = await abortable(resolveDestination(target, policy), signal, abortReason);
    const response = await exchange(target, address, { ...request, method, body, headers }, signal, abortReason);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.status) || !location || (request.maxRedirects ?? 0) === 0) return response;
    if (hop >= (request.maxRedirects ?? 0)) {
      throw new OutboundError("too_many_redirects", `more than ${request.maxRedirects} redirects from ${request.url}`);
    }
    const next = new URL(location, target);
    // As fetch does with credentials: a header meant for one origin (a vendor's key) is not handed to another.
    if (next.origin !== target.origin) headers = undefined;
    url = next.toString();
    // As browsers and fetch do: 303, and 301/302 after a POST, continue as a GET without the body.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
    }
  }
}

function abortable<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

// The connection goes to the address that was checked, whatever the name would resolve to now; the name still
// drives the Host header and TLS (SNI and certificate verification).
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
}

// Node's errors name the address they connected to ("connect ECONNREFUSED 203.0.113.5:443"), which is what the
// name resolved to: the name the caller gave stands in for it, as in a refusal (destination.ts).
function withoutAddress(message: string, target: URL, pinned: ResolvedAddress): string {
  return message.split(pinned.address).join(bareHostname(target));
}

function exchange(
  target: URL,
  pinned: ResolvedAddress,
  request: OutboundRequest,
  signal: AbortSignal,
  abortReason: () => OutboundError,
): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason());
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
    const transport = target.protocol === "https:" ? https : http;
    const outgoing = transport.request({
      protocol: target.protocol,
      hostname: target.hostname.startsWith("[") ? target.hostname.slice(1, -1) : target.hostname,
      port: target.port || undefined,
      path: `${target.pathname}${target.search}`,
      method: request.method,
      headers,
      lookup: pinnedLookup(pinned),
      // A fresh connection per request: a pooled socket could belong to an address checked for another name.
      agent: false,
    });
    let settled = false;
    const pace = request.pace ? new PaceWatch(request.pace, (error) => fail(error)) : null;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      pace?.stop();
      signal.removeEventListener("abort", onAbort);
      outgoing.destroy();
      reject(error instanceof OutboundError ? error : new OutboundError("network", withoutAddress(error.message, target, pinned)));
    };
    const onAbort = () => fail(abortReason());
    signal.addEventListener("abort", onAbort, { once: true });
    outgoing.on("error", fail);
    outgoing.on("response", (incoming) => {
      pace?.responded();
      const chunks: Buffer[] = [];
      let size = 0;
      const succeed = () => {
        if (settled) return;
        settled = true;
        pace?.stop();
        signal.removeEventListener("abort", onAbort);
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          body: Buffer.concat(chunks),
          url: target.toString(),
          address: pinned.address,
        });
      };
      const status = incoming.statusCode ?? 0;
      const sink = request.sink && status >= 200 && status < 300 ? request.sink : null;
      if (sink) sink.on("error", fail);
      incoming.on("data", (chunk: Buffer) => {
        if (settled) return;
        pace?.received(chunk.length);
        if (sink) {
          size += chunk.length;
          if (size > request.maxResponseBytes) {
            return fail(new OutboundError("too_large", `the response body exceeds ${request.maxResponseBytes} bytes`));
          }
          if (!sink.write(chunk)) {
            incoming.pause();
            sink.once("drain", () => incoming.resume());
          }
          return;
        }
        const room = request.maxResponseBytes - size;
        size += chunk.length;
        if (size <= request.maxResponseBytes) {
          chunks.push(chunk);
        } else if (request.oversizedBody === "truncate") {
          chunks.push(chunk.subarray(0, room));
          succeed();
          outgoing.destroy();
        } else {
          fail(new OutboundError("too_large", `the response body exceeds ${request.maxResponseBytes} bytes`));
        }
      });
      incoming.on("error", fail);
      incoming.on("close", () => {
        if (!incoming.complete) fail(new Error("the connection closed before the response was complete"));
      });
      incoming.on("end", () => {
        // The body is all here: what remains (the sink's flush) is ours, not the source's pace.
        pace?.stop();
        if (sink) sink.end(succeed);
        else succeed();
      });
    });
    outgoing.end(request.body);
  });
}
