import { admin, isScope, localIssuer, mcpResourceUrl, mintDevAccessToken, SCOPES, type Core, type Scope } from "../core/index.js";

const DEFAULT_TTL_SECONDS = 3600;
const MAX_TTL_SECONDS = 30 * 24 * 3600;

function parseScopes(text: string | undefined): Scope[] {
  if (!text) return [...SCOPES];
  const scopes = text.split(/[,\s]+/).filter((s) => s !== "");
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new Error(`unknown scope(s): ${unknown.join(", ")}; known: ${SCOPES.join(", ")}`);
  return scopes as Scope[];
}

function parseTtl(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TTL_SECONDS;
  const ttl = Number(text);
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_SECONDS) throw new Error(`--ttl must be 1 to ${MAX_TTL_SECONDS} seconds`);
  return ttl;
}

// `svc token TENANT_ID [--scopes a,b] [--ttl SECONDS]`: a development access token for the MCP server, signed by
// the local key whose JWKS the MCP server publishes. Its audience is that server's /mcp URL.
export async function runTokenCommand(core: Core, tenantId: string | undefined, options: { scopes?: string; ttl?: string }) {
  if (!tenantId) throw new Error("TENANT_ID is required");
  const key = core.config.oauth.signingKey;
  if (!key) throw new Error("no signing key (OAUTH_SIGNING_KEY)");
  const scopes = parseScopes(options.scopes);
  const ttl = parseTtl(options.ttl);
  const tenants = await admin.listTenants(core.db);
  if (!tenants.some((t) => t.id === tenantId)) throw new Error(`no tenant ${tenantId}`);
  const issuer = localIssuer(core.config);
  const audience = mcpResourceUrl(core.config);
  const token = await mintDevAccessToken(key, {
    issuer,
    audience,
    tenantId,
    subject: "svc-cli",
    scopes,
    expiresInSeconds: ttl,
    now: core.clock(),
  });
  return { access_token: token, token_type: "Bearer", expires_in: ttl, scope: scopes.join(" "), issuer, audience, tenant_id: tenantId };
}
