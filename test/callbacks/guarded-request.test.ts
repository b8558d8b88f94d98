import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextAttemptAt } from "../../core/callbacks/schedule.js";
import { ConfigError, loadConfig } from "../../core/index.js";
import { classifyAddress, guardedRequest, OutboundError, urlRefusal, type OutboundPolicy } from "../../core/net/index.js";
import { startReceiver, type Receiver } from "./receiver.js";

// The guarded outbound client on its own, against real servers on loopback. Name resolution is the one thing
// replaced: a resolver that answers what the test needs, as a hostile DNS server would.

const DEV: OutboundPolicy = { allowLoopbackHttp: true };
const STRICT: OutboundPolicy = { allowLoopbackHttp: false };
const request = { method: "GET" as const, timeoutMs: 2000, maxResponseBytes: 1024 };

async function refusal(policy: OutboundPolicy, url: string, extra: object = {}): Promise<OutboundError> {
  const error = await guardedRequest(policy, { ...request, url, ...extra }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

let ok: Receiver;
let redirecting: Receiver;
let big: Server;
let bigUrl: string;
beforeAll(async () => {
  ok = await startReceiver(() => ({ status: 200, body: "fine" }));
  redirecting = await startReceiver(() => ({ status: 302, headers: { location: `${ok.url}/landed` } }));
  big = createServer((_req, res) => res.end("x".repeat(10_000)));
  await new Promise<void>((resolve) => big.listen(0, "127.0.0.1", resolve));
  bigUrl = `http://127.0.0.1:${(big.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ok?.close();
  await redirecting?.close();
  big?.closeAllConnections();
  await new Promise((resolve) => big?.close(resolve));
});

describe("address classification", () => {
  it.each([
    ["93.184.216.34", "public"],
    ["2606:4700:4700::1111", "public"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["169.254.10.10", "link_local"],
    ["fe80::1", "link_local"],
    ["169.254.169.254", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["100.128.0.1", "public"],
    ["fc00::1", "unique_local"],
    ["fd12:3456:789a::1", "unique_local"],
    ["224.0.0.251", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:8.8.8.8", "public"],
    ["64:ff9b::a00:1", "private"],
    ["2002:7f00:1::", "loopback"],
    ["2001:db8::1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["[::1]", "loopback"],
    ["example.com", "invalid"],
  ])("%s is %s", (address, category) => {
    expect(classifyAddress(address)).toBe(category);
  });
});

describe("destination checks", () => {
  it("needs https unless the development switch is on; never credentials; never a private literal", () => {
    expect(urlRefusal("http://example.com/", STRICT)).toBe("must be an HTTPS URL");
    expect(urlRefusal("http://example.com/", DEV)).toBeNull();
    expect(urlRefusal("ftp://example.com/", DEV)).toBe("must be an HTTPS URL");
    expect(urlRefusal("https://example.com/", STRICT)).toBeNull();
    expect(urlRefusal("https://a:b@example.com/", STRICT)).toBe("must not carry user credentials");
    expect(urlRefusal("https://10.0.0.1/", DEV)).toContain("private");
    expect(urlRefusal("https://127.0.0.1/", STRICT)).toContain("loopback");
    expect(urlRefusal("https://127.0.0.1/", DEV)).toBeNull();
  });

  it("refuses plain http and loopback with the switch off, before connecting", async () => {
    expect((await refusal(STRICT, `${ok.url}/x`)).failure).toBe("refused");
    const before = ok.requests.length;
    expect((await refusal(STRICT, `https://127.0.0.1:${new URL(ok.url).port}/x`)).message).toContain("loopback");
    expect(ok.requests.length).toBe(before);
  });

  it("checks every address a name resolves to", async () => {
    const resolve = async () => [
      { address: "93.184.216.34", family: 4 as const },
      { address: "10.0.0.7", family: 4 as const },
    ];
    const error = await refusal({ allowLoopbackHttp: true, resolve }, "http://mixed.test/");
    expect(error.failure).toBe("refused");
    // The rule, never the address: what a name resolves to is not the caller's to read through the service.
    expect(error.message).toBe("mixed.test resolves to a private, loopback or other non-public address");
    const metadata = await refusal({ allowLoopbackHttp: true, resolve: async () => [{ address: "::ffff:169.254.169.254", family: 6 }] }, "http://meta.test/");
    expect(metadata.failure).toBe("refused");
    expect(metadata.message).not.toContain("169.254");
  });

  it("names the host, not the address it resolved to, when the connection fails", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const resolve = async () => [{ address: "127.0.0.1", family: 4 as const }];
    const error = await refusal({ allowLoopbackHttp: true, resolve }, `http://internal.test:${port}/`);
    expect(error.failure).toBe("network");
    expect(error.message).toContain(`internal.test:${port}`);
    expect(error.message).not.toContain("127.0.0.1");
  });

  it("connects to the address it checked, never resolving the name again", async () => {
    let lookups = 0;
    const resolve = async () => {
      lookups++;
      return [{ address: "127.0.0.1", family: 4 as const }];
    };
    const port = new URL(ok.url).port;
    // `rebind.invalid` cannot resolve anywhere, so an answer proves the connection used the checked address.
    const response = await guardedRequest({ allowLoopbackHttp: true, resolve }, { ...request, url: `http://rebind.invalid:${port}/pinned` });
    expect(response.status).toBe(200);
    expect(response.address).toBe("127.0.0.1");
    expect(lookups).toBe(1);
    expect(ok.requests.at(-1)!.headers.host).toBe(`rebind.invalid:${port}`);
  });

  it("reports a name that does not resolve", async () => {
    expect((await refusal(DEV, "http://nothing-here.invalid/")).failure).toBe("dns_failed");
  });
});

describe("redirects, size and time", () => {
  it("answers a redirect as it is unless asked to follow", async () => {
    const before = ok.requests.length;
    const response = await guardedRequest(DEV, { ...request, url: `${redirecting.url}/go` });
    expect(response.status).toBe(302);
    expect(ok.requests.length).toBe(before);
    const followed = await guardedRequest(DEV, { ...request, url: `${redirecting.url}/go`, maxRedirects: 1 });
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(`${ok.url}/landed`);
    expect(followed.body.toString()).toBe("fine");
  });

  it("checks every redirect hop like the first", async () => {
    const toMetadata = await startReceiver(() => ({ status: 307, headers: { location: "http://169.254.169.254/latest/meta-data" } }));
    try {
      const error = await refusal(DEV, `${toMetadata.url}/`, { maxRedirects: 3 });
      expect(error.failure).toBe("refused");
      expect(error.message).toContain("metadata");
    } finally {
      await toMetadata.close();
    }
    const chain = await startReceiver(() => ({ status: 301, headers: { location: `${redirecting.url}/go` } }));
    try {
      expect((await refusal(DEV, `${chain.url}/`, { maxRedirects: 1 })).failure).toBe("too_many_redirects");
      expect((await guardedRequest(DEV, { ...request, url: `${chain.url}/`, maxRedirects: 2 })).status).toBe(200);
    } finally {
      await chain.close();
    }
  });

  it("caps the response body, or keeps its beginning when asked", async () => {
    expect((await refusal(DEV, bigUrl)).failure).toBe("too_large");
    const truncated = await guardedRequest(DEV, { ...request, url: bigUrl, oversizedBody: "truncate" });
    expect(truncated.status).toBe(200);
    expect(truncated.body.length).toBe(1024);
  });

  it("gives up at the time limit", async () => {
    const slow = await startReceiver(() => ({ status: 200, delayMs: 3000 }));
    try {
      const started = Date.now();
      const error = await refusal(DEV, `${slow.url}/`, { timeoutMs: 200 });
      expect(error.failure).toBe("timeout");
      expect(Date.now() - started).toBeLessThan(2500);
      // The caller abandoning the request (a worker stopping) is told apart from the receiver being slow.
      const abandoned = await refusal(DEV, `${slow.url}/`, { signal: AbortSignal.timeout(100) });
      expect(abandoned.failure).toBe("aborted");
    } finally {
      await slow.close();
    }
  });
});

describe("callback settings", () => {
  const minimal = { DATABASE_URL: "postgres://x", ARTIFACT_URL_SECRET: "s".repeat(32), CALLBACK_SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64") };

  it("default to SPEC.md's 10-second limit and real minutes, with the development switch off", () => {
    const config = loadConfig(minimal);
    expect(config.callbackTimeoutMs).toBe(10_000);
    expect(config.callbackRetryMinuteMs).toBe(60_000);
    expect(config.workerPollIntervalMs).toBe(1000);
    expect(config.outboundAllowLoopbackHttp).toBe(false);
    expect(loadConfig({ ...minimal, OUTBOUND_ALLOW_LOOPBACK_HTTP: "true" }).outboundAllowLoopbackHttp).toBe(true);
  });

  it("schedule retries after 1, 5, 30, 120 and 720 minutes, then nothing", () => {
    const failedAt = new Date("2030-01-01T00:00:00Z");
    const delays = [1, 2, 3, 4, 5, 6].map((attempt) => nextAttemptAt(attempt, failedAt, 60_000)?.getTime());
    expect(delays.map((t) => (t === undefined ? null : (t - failedAt.getTime()) / 60_000))).toEqual([1, 5, 30, 120, 720, null]);
  });

  it("need a 32-byte encryption key", () => {
    for (const bad of [undefined, "short", Buffer.alloc(16).toString("base64"), `${Buffer.alloc(32).toString("base64")}!`]) {
      expect(() => loadConfig({ ...minimal, CALLBACK_SECRET_ENCRYPTION_KEY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ ...minimal, CALLBACK_SECRET_ENCRYPTION_KEY: bad })).toThrow(/CALLBACK_SECRET_ENCRYPTION_KEY/);
    }
    expect(loadConfig({ ...minimal, CALLBACK_SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64url") }).callbackSecretKey).toHaveLength(32);
  });
});
