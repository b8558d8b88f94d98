import { createHash, randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SCOPES, sweepOauthRecords } from "../../core/index.js";
import { startMcpHttpServer, type McpHttpServer } from "../../mcp-server/http.js";
import { openBrowser, type Browser } from "../console/browser.js";
import { freePort, startMcpHarness, type McpHarness } from "../mcp/support.js";
import { loopbackCallback, signInAsPerson, type LoopbackCallback } from "./host.js";

// Dynamic registration is open to anyone and so bounded: per source address an hour (the service's default, 20),
// and at most OAUTH_UNGRANTED_CLIENTS_MAX clients no person has consented to, which the sweep drops after their
// time to live. Every request here comes from 127.0.0.1. Time moves through the sweep's `now`, never by waiting.

vi.setConfig({ testTimeout: 60_000 });

const UNGRANTED_MAX = 25;
const PER_HOUR = 20;

let m: McpHarness;
let browser: Browser;
let callback: LoopbackCallback;
// A second server on the same database, its per-source bound out of the way, for the cap.
let roomy: McpHttpServer;
let roomyIssuer: string;

beforeAll(async () => {
  [m, browser, callback] = await Promise.all([
    startMcpHarness({ worker: false, env: { OAUTH_SERVER: "true", OAUTH_UNGRANTED_CLIENTS_MAX: String(UNGRANTED_MAX) } }),
    openBrowser(),
    loopbackCallback(),
  ]);
  const port = await freePort();
  const config = m.h.core.config;
  roomyIssuer = `http://127.0.0.1:${port}`;
  roomy = await startMcpHttpServer({
    ...m.h.core,
    config: {
      ...config,
      mcp: { ...config.mcp, port, publicUrl: roomyIssuer },
      oauth: { ...config.oauth, registration: { ...config.oauth.registration, perSourcePerHour: 10_000 } },
    },
  });
});
afterAll(async () => {
  await roomy?.close();
  await browser?.close();
  await callback?.close();
  await m?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

function register(issuer: string, redirectUri = "https://host.example/callback") {
  return fetch(`${issuer}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Flood", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }),
  });
}

async function expectRefusal(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter) && retryAfter > 0).toBe(true);
  const body = (await response.json()) as Any;
  expect(Object.keys(body).sort()).toEqual(["error", "error_description"]);
  expect(body.error).toBe("temporarily_unavailable");
  expect(body.error_description).toContain(`retry in ${retryAfter} seconds`);
  return retryAfter;
}

function authorizeUrl(issuer: string, clientId: string): URL {
  const url = new URL(`${issuer}/oauth/authorize`);
  const challenge = createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url");
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: callback.redirectUrl,
    scope: SCOPES.join(" "),
    resource: `${issuer}/mcp`,
    state: randomUUID(),
    code_challenge: challenge,
    code_challenge_method: "S256",
  })) {
    url.searchParams.set(name, value);
  }
  return url;
}

const sweepAt = (offsetSeconds: number) =>
  sweepOauthRecords(m.h.core.db, m.h.core.config, new Date(m.h.core.clock().getTime() + offsetSeconds * 1000));

describe("dynamic registration", () => {
  it("takes at most its bound from one address in an hour; past it, 429 with Retry-After and an RFC 6749 error body", async () => {
    const statuses: number[] = [];
    let firstRefusal: Response | null = null;
    for (let n = 0; n < 300; n++) {
      const response = await register(m.h.core.config.mcp.publicUrl);
      statuses.push(response.status);
      if (response.status === 429 && !firstRefusal) firstRefusal = response;
      else await response.body?.cancel();
    }
    expect(statuses.slice(0, PER_HOUR)).toEqual(Array<number>(PER_HOUR).fill(201));
    expect(statuses.slice(PER_HOUR)).toEqual(Array<number>(300 - PER_HOUR).fill(429));
    const retryAfter = await expectRefusal(firstRefusal as Response, 429);
    expect(retryAfter).toBeLessThanOrEqual(3600);
  });

  it("behind a proxy named in MCP_TRUSTED_PROXIES, counts the client X-Forwarded-For names, not the proxy", async () => {
    const port = await freePort();
    const config = m.h.core.config;
    const proxied = await startMcpHttpServer({ ...m.h.core, config: { ...config, mcp: { ...config.mcp, port, publicUrl: `http://127.0.0.1:${port}`, trustedProxies: ["127.0.0.1"] } } });
    try {
      const from = (address: string) =>
        fetch(`http://127.0.0.1:${port}/oauth/register`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": address },
          body: JSON.stringify({ redirect_uris: ["https://host.example/callback"] }),
        });
      // 127.0.0.1 itself is past its bound (the test before); a client behind the proxy is not.
      expect((await from("127.0.0.1")).status).toBe(429);
      expect((await from("203.0.113.7")).status).toBe(201);
    } finally {
      await proxied.close();
    }
  });

  it("keeps at most OAUTH_UNGRANTED_CLIENTS_MAX clients never granted; a grant frees a place, and the sweep drops the rest after their time to live", async () => {
    // The previous tests left PER_HOUR + 1 clients nobody consented to.
    const created: string[] = [];
    for (let n = PER_HOUR + 1; n < UNGRANTED_MAX - 1; n++) {
      const response = await register(roomyIssuer);
      expect(response.status).toBe(201);
      created.push(((await response.json()) as Any).client_id);
    }
    const toGrant = await register(roomyIssuer, callback.redirectUrl);
    expect(toGrant.status).toBe(201);
    const grantedId = ((await toGrant.json()) as Any).client_id as string;
    await expectRefusal(await register(roomyIssuer), 503);

    // A person consents to one of them: it no longer counts, and one more registration fits.
    const answer = await signInAsPerson(browser.page, authorizeUrl(roomyIssuer, grantedId), m.h.apiKey, callback.redirectUrl);
    expect(answer.get("code")).toBeTruthy();
    const last = await register(roomyIssuer);
    expect(last.status).toBe(201);
    await expectRefusal(await register(roomyIssuer), 503);

    const ttl = m.h.core.config.oauth.registration.ungrantedTtlSeconds;
    expect(ttl).toBe(24 * 3600);
    expect(await sweepAt(ttl - 60)).toBe(0);
    expect((await register(roomyIssuer)).status).toBe(503);
    expect(await sweepAt(ttl + 60)).toBe(UNGRANTED_MAX);

    // The swept clients are gone (a host asking with one is told invalid_client on its loopback listener, and
    // registers again); the granted one stays; registration is open again.
    const swept = await fetch(authorizeUrl(roomyIssuer, created[0] as string), { redirect: "manual" });
    expect(swept.status).toBe(302);
    const back = new URL(swept.headers.get("location") as string);
    expect(back.origin + back.pathname).toBe(callback.redirectUrl);
    expect(back.searchParams.get("error")).toBe("invalid_client");
    const kept = await fetch(authorizeUrl(roomyIssuer, grantedId), { redirect: "manual" });
    expect(kept.status).toBe(303);
    expect((await register(roomyIssuer)).status).toBe(201);
  });
});
