import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import type { Page } from "playwright-core";

// What an MCP host holds to sign in with the service's authorization server: the v2 SDK client's OAuth provider
// kept in memory, the loopback page its redirect URI names, and a person at a headless Chromium typing an API key.

type ProviderState = {
  client?: Awaited<ReturnType<OAuthClientProvider["clientInformation"]>>;
  tokens?: Awaited<ReturnType<OAuthClientProvider["tokens"]>>;
  verifier?: string;
  discovery?: unknown;
};

export interface LoopbackCallback {
  redirectUrl: string;
  close(): Promise<void>;
}

// A native host's redirect URI: a loopback HTTP server answering one small page.
export async function loopbackCallback(): Promise<LoopbackCallback> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>done</title><p>You may close this window.</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface TestHost extends OAuthClientProvider {
  stored: ProviderState;
  // The authorization URL the SDK asked the host to open.
  authorizationUrl: URL | null;
}

export function sdkHost(redirectUrl: string, name = "Test host"): TestHost {
  const state: ProviderState = {};
  const host: TestHost = {
    stored: state,
    authorizationUrl: null,
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return { client_name: name, redirect_uris: [redirectUrl], token_endpoint_auth_method: "none" };
    },
    clientInformation: () => state.client,
    saveClientInformation: (client) => {
      state.client = client;
    },
    tokens: () => state.tokens,
    saveTokens: (tokens) => {
      state.tokens = tokens;
    },
    redirectToAuthorization: (url) => {
      host.authorizationUrl = url;
    },
    saveCodeVerifier: (verifier) => {
      state.verifier = verifier;
    },
    codeVerifier: () => {
      if (!state.verifier) throw new Error("no code verifier saved");
      return state.verifier;
    },
    discoveryState: () => state.discovery as never,
    saveDiscoveryState: (discovery) => {
      state.discovery = discovery;
    },
    invalidateCredentials: (scope) => {
      if (scope === "all" || scope === "tokens") delete state.tokens;
      if (scope === "all" || scope === "client") delete state.client;
      if (scope === "all" || scope === "verifier") delete state.verifier;
    },
  };
  return host;
}

export interface SignInOptions {
  // Scopes to untick on the consent page.
  untick?: string[];
  deny?: boolean;
}

// A person at the browser: opens the authorization URL, signs in with the key, answers the consent page, and
// ends at the host's redirect URI, whose query is returned. Each time from a fresh browser session, so the key
// signed in with is this one.
export async function signInAsPerson(page: Page, authorizationUrl: URL | string, apiKey: string, redirectUrl: string, options: SignInOptions = {}): Promise<URLSearchParams> {
  await page.context().clearCookies();
  await page.goto(String(authorizationUrl));
  await page.getByLabel("API key of your account").fill(apiKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Allow this application to use your account?" }).waitFor();
  for (const scope of options.untick ?? []) await page.locator(`input[name="scope"][value="${scope}"]`).uncheck();
  const redirected = page.waitForURL((url) => url.href.startsWith(redirectUrl));
  await page.getByRole("button", { name: options.deny ? "Deny" : "Allow" }).click();
  await redirected;
  return new URL(page.url()).searchParams;
}
