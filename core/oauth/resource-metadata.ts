import type { Config } from "../config.js";
import { SCOPES } from "./scopes.js";

// The MCP endpoint is the OAuth protected resource: its URL is the audience every access token must carry.
export function mcpResourceUrl(config: Pick<Config, "mcp">): string {
  return `${config.mcp.publicUrl}/mcp`;
}

// RFC 9728 §3.1: the metadata of a resource with a path lives at the well-known URI with that path appended.
export function protectedResourceMetadataUrl(config: Config): string {
  return `${config.mcp.publicUrl}/.well-known/oauth-protected-resource/mcp`;
}

// The service's own issuer is the MCP server's public URL: the built-in authorization server answers there, and
// `svc token` signs as it; its public key is at /.well-known/jwks.json.
export function localIssuer(config: Config): string {
  return config.mcp.publicUrl;
}

export function localJwksUrl(config: Config): string {
  return `${config.mcp.publicUrl}/.well-known/jwks.json`;
}

// The authorization servers a client may get a token from: the external issuer first (a deployment that set one
// means it), then the built-in one. The local issuer alone, without the built-in server, has no endpoint a client
// could use, so it is not named.
export function authorizationServers(config: Config): string[] {
  const issuers: string[] = [];
  if (config.oauth.issuer) issuers.push(config.oauth.issuer);
  if (config.oauth.server) issuers.push(localIssuer(config));
  return issuers;
}

// RFC 9728 protected-resource metadata: where tokens come from and which scopes mean something here.
export function protectedResourceMetadata(config: Config) {
  const issuers = authorizationServers(config);
  return {
    resource: mcpResourceUrl(config),
    ...(issuers.length > 0 ? { authorization_servers: issuers } : {}),
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Media task service (MCP)",
    resource_documentation: `${config.publicBaseUrl}/v1/docs`,
  };
}
