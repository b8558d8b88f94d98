import { admin, oauthGrants, type Core } from "../core/index.js";

// `svc oauth clients|grants list TENANT_ID` and their revocations: what people consented to on the built-in
// authorization server's pages, as an operator sees and ends it. Ending a grant ends its codes and tokens at
// once: the MCP server reads access tokens from the database on every request.

// What these commands use of cli/handlers.ts's context (which spreads them among its handlers).
interface OauthCommandContext {
  core: Core;
  args: Record<string, string | undefined>;
  print(json: unknown, text: string): void;
}

// The parser refuses a command without its positionals, so they are there.
const positional = (ctx: OauthCommandContext, name: string) => ctx.args[name] as string;

export const OAUTH_HANDLERS: Record<string, (ctx: OauthCommandContext) => Promise<number>> = {
  async "oauth clients list"(ctx) {
    const tenantId = positional(ctx, "TENANT_ID");
    await admin.getTenant(ctx.core.db, tenantId);
    const clients = await oauthGrants.listClients(ctx.core.db, tenantId);
    ctx.print(
      clients.map((c) => ({ client_id: c.clientId, client_name: c.clientName, grants: c.grants, last_granted_at: c.lastGrantedAt })),
      clients.map((c) => `${c.clientId}  grants:${c.grants}  last ${c.lastGrantedAt.toISOString()}  ${c.clientName ?? ""}`).join("\n") || "(no clients)",
    );
    return 0;
  },

  async "oauth clients revoke"(ctx) {
    const tenantId = positional(ctx, "TENANT_ID");
    const clientId = positional(ctx, "CLIENT_ID");
    const ended = await oauthGrants.revokeClientGrants(ctx.core.db, tenantId, clientId);
    ctx.print({ tenant_id: tenantId, client_id: clientId, grants_revoked: ended }, `${ended} grant(s) of ${tenantId} to ${clientId} revoked`);
    return 0;
  },

  async "oauth grants list"(ctx) {
    const tenantId = positional(ctx, "TENANT_ID");
    await admin.getTenant(ctx.core.db, tenantId);
    const grants = await oauthGrants.listGrants(ctx.core.db, tenantId);
    ctx.print(
      grants.map((g) => ({
        grant_id: g.grantId,
        client_id: g.clientId,
        client_name: g.clientName,
        key_id: g.keyId,
        key_name: g.keyName,
        scopes: g.scopes,
        created_at: g.createdAt,
        expires_at: g.expiresAt,
      })),
      grants
        .map((g) => `${g.grantId}  ${g.clientId}${g.clientName ? ` (${g.clientName})` : ""}  key:${g.keyId}  ${g.scopes.join(",") || "(no scopes)"}  since ${g.createdAt.toISOString()}`)
        .join("\n") || "(no grants)",
    );
    return 0;
  },

  async "oauth grants revoke"(ctx) {
    const grantId = positional(ctx, "GRANT_ID");
    await oauthGrants.revokeGrant(ctx.core.db, grantId);
    ctx.print({ grant_id: grantId, status: "revoked" }, `grant ${grantId} revoked`);
    return 0;
  },
};
