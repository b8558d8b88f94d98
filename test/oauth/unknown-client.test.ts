import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpHarness, type McpHarness } from "../mcp/support.js";

// A sign-in asked for by a client the server does not know: a client id a host cached before a database reset,
// or a metadata document's URL the server cannot fetch. A host waiting on a loopback listener is told at once
// (invalid_client sent to its listener), so it drops the id and registers; a redirect URI that is not such a
// listener gets the page as before. A document that cannot be reached withdraws the offer of documents from the
// metadata, so that hosts register. Metadata documents are on here (the default), and this machine reaches no
// server on the internet, as a deployment without outbound access does not.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

let m: McpHarness;
beforeAll(async () => {
  m = await startMcpHarness({ worker: false, env: { OAUTH_SERVER: "true" } });
});
afterAll(async () => m?.close());

const issuer = () => m.h.core.config.mcp.publicUrl;
const metadata = async () => (await (await fetch(`${issuer()}/.well-known/oauth-authorization-server`)).json()) as Any;

function authorize(clientId: string, redirectUri: string): Promise<Response> {
  const url = new URL(`${issuer()}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    state: "state-1",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
  }).toString();
  return fetch(url, { redirect: "manual" });
}

describe("a client id the server does not know", () => {
  it("is sent back to the host's loopback listener as invalid_client, with the state and the issuer", async () => {
    const answer = await authorize("client-from-before-a-reset", "http://localhost:43123/callback");
    expect([302, 303]).toContain(answer.status);
    const back = new URL(answer.headers.get("location") as string);
    expect(back.origin + back.pathname).toBe("http://localhost:43123/callback");
    expect(back.searchParams.get("error")).toBe("invalid_client");
    expect(back.searchParams.get("state")).toBe("state-1");
    expect(back.searchParams.get("iss")).toBe(issuer());
    expect(back.searchParams.get("code")).toBeNull();
  });

  it("is refused on a page, never redirected, when the redirect URI is not a loopback listener", async () => {
    for (const redirectUri of ["https://host.example/callback", "http://localhost/callback", "http://attacker.example:8080/callback"]) {
      const answer = await authorize("client-from-before-a-reset", redirectUri);
      expect(answer.status, redirectUri).toBe(400);
      expect(answer.headers.get("location")).toBeNull();
      expect(await answer.text()).toContain("client is invalid");
    }
  });
});

describe("a metadata document this server cannot reach", () => {
  it("answers invalid_client to the host, then the metadata stops offering documents and hosts register", async () => {
    expect((await metadata()).client_id_metadata_document_supported).toBe(true);
    const documentUrl = "https://client-metadata.invalid/oauth/client-metadata";
    const first = await authorize(documentUrl, "http://localhost:43124/callback");
    const back = new URL(first.headers.get("location") as string);
    expect(back.searchParams.get("error")).toBe("invalid_client");
    expect(back.searchParams.get("error_description")).toBe("client_id metadata document fetch failed");

    const after = await metadata();
    expect(after.client_id_metadata_document_supported).toBeUndefined();
    expect(after.registration_endpoint).toBe(`${issuer()}/oauth/register`);
    // A host that still names itself by a document is told the same at once, without another fetch.
    const again = new URL((await authorize(documentUrl, "http://localhost:43124/callback")).headers.get("location") as string);
    expect(again.searchParams.get("error")).toBe("invalid_client");
    // Registration, where a host goes next, works.
    const registered = await fetch(`${issuer()}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Host after the fallback", redirect_uris: ["http://localhost:43124/callback"], token_endpoint_auth_method: "none" }),
    });
    expect(registered.status).toBe(201);
    const clientId = ((await registered.json()) as Any).client_id as string;
    const signIn = await authorize(clientId, "http://localhost:43124/callback");
    expect(signIn.status).toBe(303);
    expect(new URL(signIn.headers.get("location") as string, issuer()).pathname).toMatch(/^\/oauth\/interaction\//);
  });
});
