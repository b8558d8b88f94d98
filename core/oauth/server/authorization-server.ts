import { hkdfSync } from "node:crypto";
import type { Configuration, KoaContextWithOIDC, default as Provider } from "oidc-provider";
import type { Config, SigningKey } from "../../config.js";
import type { Db } from "../../db/client.js";
import { localIssuer, mcpResourceUrl } from "../resource-metadata.js";
import { SCOPES } from "../scopes.js";
import { findKeyAccount } from "./key-accounts.js";
import { loopbackErrorRedirect } from "./loopback-error-redirect.js";
import { fetchAllowingLoopback } from "./metadata-document-fetch.js";
import { MetadataDocumentReach } from "./metadata-document-reach.js";
import { OauthStorage } from "./storage.js";

// Where the built-in authorization server answers, under the issuer (the MCP public URL). The metadata is at the
// issuer's well-known paths (RFC 8414 and OpenID Connect discovery), the JWKS where the MCP server publishes it.
export const AUTHORIZATION_SERVER_ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  registration: "/oauth/register",
  revocation: "/oauth/revoke",
  jwks: "/.well-known/jwks.json",
} as const;
export const INTERACTION_PATH = "/oauth/interaction";

const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;

// The sign-in and consent pages are the surface's; the server tells it where to send the browser and how to show
// an error to a person (never a redirect to a URI the client did not register).
export interface AuthorizationServerPages {
  renderError(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }): void;
}

// Cookies are signed with keys derived from the signing key, so every replica, sharing that key, reads the
// cookies of every other, and there is no second secret to configure.
function cookieKeys(key: SigningKey): string[] {
  return [Buffer.from(hkdfSync("sha256", Buffer.from(key.d, "base64url"), "", "svc oauth cookies", 32)).toString("base64url")];
}

type OidcProvider = typeof import("oidc-provider");

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

// Redirect URIs match exactly, byte for byte, with the one exception OAuth 2.1 (§8.4.2, after RFC 8252 §7.3) makes:
// a loopback redirect URI registered without a port matches any port, since a host on the person's machine takes
// an ephemeral one for each sign-in. Claude Code's client ID metadata document lists such URIs
// (http://localhost/callback) and does not call itself native, which is all oidc-provider's own rule looks at; a
// URI registered with a port (as dynamic registrations send theirs) matches that port only.
export function redirectUriAllowed(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const url = URL.parse(requested);
  if (!url || url.protocol !== "http:" || !LOOPBACK_HOSTS.has(url.hostname) || url.port === "") return false;
  const origin = `http://${url.hostname}:${url.port}`;
  return requested.startsWith(origin) && registered.includes(`http://${url.hostname}${requested.slice(origin.length)}`);
}

// A redirect URI is HTTPS or plain HTTP to a loopback address (OAuth 2.1 §1.5 and §8.4.2; the MCP authorization
// spec: "either localhost URLs or HTTPS URLs"): a code sent in clear over the network could be read on its way.
// oidc-provider lets a web client register any http URI. Nor may it carry userinfo (RFC 3986 §3.2.1 deprecates a
// password there): `https://user:pw@x.example/cb` hands a credential to wherever the code goes, and may read to a
// person as another host than it is. Checked for registrations and metadata documents alike.
const USERINFO = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i;

function redirectUriRefusal(uri: string): string | null {
  const url = URL.parse(uri);
  if (USERINFO.test(uri)) return `redirect_uris may not carry a user name or password before the host: ${url ? `${url.protocol}//…@${url.host}${url.pathname}`.slice(0, 200) : "(unparsable)"}`;
  if (url?.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) return `redirect_uris must use https, or http to a loopback address (127.0.0.1, [::1], localhost): ${uri.slice(0, 200)}`;
  return null;
}

// A session whose key was revoked, or whose tenant was suspended, since the person signed in asks to sign in again.
function loginPolicy({ interactionPolicy }: OidcProvider) {
  const policy = interactionPolicy.base();
  policy.get("login")?.checks.add(
    new interactionPolicy.Check("key_unusable", "the API key signed in with can no longer be used", (ctx) =>
      ctx.oidc.session?.accountId && !ctx.oidc.account ? interactionPolicy.Check.REQUEST_PROMPT : interactionPolicy.Check.NO_NEED_TO_PROMPT,
    ),
  );
  return policy;
}

// The OAuth 2.1 authorization server the MCP server runs (oidc-provider): public clients registered dynamically
// (RFC 7591) or known by a client ID metadata document, the authorization code with PKCE S256 only, refresh
// tokens rotated at every use, and one resource, the MCP URL (RFC 8707), as every access token's audience. Its
// access tokens are opaque and stored (core/oauth/server/storage.ts), so revoking a grant, a key or a tenant
// ends them at once. Its state is in Postgres: any replica answers any step. oidc-provider is loaded here, on first
// use, so that only a process running the server loads it (on Node 20 it warns at import).
export async function createAuthorizationServer(config: Config, db: Db, pages: AuthorizationServerPages): Promise<Provider> {
  const oidc = await import("oidc-provider");
  const signingKey = config.oauth.signingKey;
  if (!signingKey) throw new Error("the built-in authorization server needs OAUTH_SIGNING_KEY");
  const resource = mcpResourceUrl(config);
  const issuer = localIssuer(config);
  const reach = new MetadataDocumentReach();
  const configuration: Configuration = {
    adapter: (name: string) => new OauthStorage(db, name),
    jwks: { keys: [{ ...signingKey, use: "sig" }] },
    cookies: {
      keys: cookieKeys(signingKey),
      names: { session: "svc_oauth_session", interaction: "svc_oauth_interaction", resume: "svc_oauth_resume" },
      long: { httpOnly: true, sameSite: "lax", signed: true },
      short: { httpOnly: true, sameSite: "lax", signed: true },
    },
    routes: AUTHORIZATION_SERVER_ROUTES,
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}`, policy: loginPolicy(oidc) },
    async findAccount(_ctx, id) {
      const account = await findKeyAccount(db, id);
      return account ? { accountId: id, claims: () => ({ sub: id }) } : undefined;
    },
    renderError: (ctx, out) => {
      const redirect = loopbackErrorRedirect(ctx, out, issuer);
      if (redirect) return void ctx.redirect(redirect);
      pages.renderError(ctx, out);
    },
    ...(config.outboundAllowLoopbackHttp ? { fetch: fetchAllowingLoopback } : {}),
    // Public clients only: a host on a person's machine or in a browser has nowhere to keep a secret.
    clientAuthMethods: ["none"],
    // Listed so that oidc-provider hands redirect_uris to the validator, which only adds the transport rule above.
    extraClientMetadata: {
      properties: ["redirect_uris"],
      validator(_ctx, key, value) {
        if (key !== "redirect_uris" || !Array.isArray(value)) return;
        for (const uri of value) {
          const refusal = typeof uri === "string" ? redirectUriRefusal(uri) : null;
          if (!refusal) continue;
          // RFC 7591's code for it; the class's fixed description (a mismatch at authorization) replaced by the rule.
          const error = new oidc.errors.InvalidRedirectUri();
          error.error_description = refusal;
          throw error;
        }
      },
    },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "ES256",
    },
    enabledJWA: { idTokenSigningAlgValues: ["ES256"] },
    responseTypes: ["code"],
    pkce: { required: () => true },
    // The MCP scopes are the resource's (getResourceServerInfo below); listed here too because clients register with
    // them (RFC 7591 `scope`) and read them from this server's metadata.
    scopes: ["offline_access", ...SCOPES],
    // A refresh token to every client allowed the grant, whether or not it asked offline_access: MCP hosts keep
    // their connection across days and differ in whether they ask.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: 60 * MINUTE,
      AuthorizationCode: MINUTE,
      RefreshToken: 30 * DAY,
      Grant: 90 * DAY,
      Interaction: 30 * MINUTE,
      Session: 60 * MINUTE,
      IdToken: 60 * MINUTE,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      // Sender-constrained tokens would need the MCP server to check DPoP proofs, which it does not.
      dPoP: { enabled: false },
      // A host named by its metadata document's URL needs this server to fetch that URL; a deployment that cannot
      // reach arbitrary HTTPS addresses turns it off, and the metadata then offers registration alone, which hosts
      // fall back to (MCP authorization, 2025-11-25: client_id_metadata_document_supported absent).
      // While documents cannot be reached (metadata-document-reach.ts), none is fetched: a host named by one is
      // answered invalid_client, which sends it to registration.
      clientIdMetadataDocument: { enabled: config.oauth.clientMetadataDocuments, ack: "draft-02", allowFetch: () => reach.reachable },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new oidc.errors.InvalidTarget(`the only resource here is ${resource}`);
          return { scope: SCOPES.join(" "), audience: resource, accessTokenFormat: "opaque", accessTokenTTL: 60 * MINUTE };
        },
      },
    },
  };
  const provider = new oidc.default(issuer, configuration);
  provider.on("authorization.error", (_ctx, error) => {
    if (error.message === "invalid_client" && (error as { error_description?: string }).error_description === "client_id metadata document fetch failed") {
      reach.noteFetchFailure(error.cause);
    }
  });
  // A registration that names no token_endpoint_auth_method is registered public (clientDefaults) but still handed
  // a secret, since oidc-provider decides on a secret from the request as sent; a client given one might use it,
  // which its registered method would refuse.
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as
      | { token_endpoint_auth_method?: string; client_secret?: string; client_secret_expires_at?: number; client_id_metadata_document_supported?: boolean }
      | undefined;
    // The metadata offers documents only while they can be fetched; without the offer, hosts register.
    if (ctx.oidc?.route === "discovery" && body && !reach.reachable) delete body.client_id_metadata_document_supported;
    if (ctx.oidc?.route === "registration" && body?.token_endpoint_auth_method === "none") {
      delete body.client_secret;
      delete body.client_secret_expires_at;
    }
  });
  // Its requests' Host and X-Forwarded-Proto are those of MCP_PUBLIC_URL (mcp-server/authorization-server/mount.ts):
  // read as a proxy's, so that behind a load balancer ending TLS its cookies are marked Secure.
  provider.proxy = true;
  provider.Client.prototype.redirectUriAllowed = function (this: { redirectUris?: string[] }, value: string) {
    return redirectUriAllowed(this.redirectUris ?? [], value);
  };
  return provider;
}
