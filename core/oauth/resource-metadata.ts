import type { Config } from "../config.js";
import { SCOPES } from "./scopes.js";

// The MCP endpoint is the OAuth protected resource: its URL is the audience every access token must carry.
export function mcpResourceUrl(config: Config): string {
  return `${config.mcp.publicUrl}/mcp`;
}

// RFC 9728 §3.1: the metadata of a resource with a path lives at the well-known URI with that path appended.
export function protectedResourceMetadataUrl(config: Config): string {
  return `${config.mcp.publicUrl}/.well-known/oauth-protected-resource/mcp`;
}

// The local development issuer is the MCP server itself; its public key is at /.well-known/jwks.json.
export function devIssuer(config: Config): string {
  return config.mcp.publicUrl;
}

export function devJwksUrl(config: Config): string {
  return `${config.mcp.publicUrl}/.well-known/jwks.json`;
}

export function trustedIssuers(config: Config): string[] {
  const issuers: string[] = [];
  if (config.oauth.issuer) issuers.push(config.oauth.issuer);
  if (config.oauth.devSigningKey) issuers.push(devIssuer(config));
  return issuers;
}

// RFC 9728 protected-resource metadata: where tokens come from and which scopes mean something here.
export function protectedResourceMetadata(config: Config) {
  const issuers = trustedIssuers(config);
  return {
    resource: mcpResourceUrl(config),
    ...(issuers.length > 0 ? { authorization_servers: issuers } : {}),
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Media task service (MCP)",
    resource_documentation: `${config.publicBaseUrl}/v1/docs`,
  };
}
