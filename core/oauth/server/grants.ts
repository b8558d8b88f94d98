import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.js";
import { apiKeys, oauthRecords } from "../../db/schema/index.js";
import { ServiceError } from "../../errors/index.js";

// What a person consented to, as operators see and end it (`svc oauth`): grants are oidc-provider's, one per
// consent, tying a client to the API key the person signed in with; every code and token names its grant.

export interface GrantSummary {
  grantId: string;
  clientId: string;
  // The name the client registered with (a client known by its metadata document has no stored registration).
  clientName: string | null;
  keyId: string;
  keyName: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date | null;
}

interface StoredGrant {
  resources?: Record<string, string>;
  rejected?: { resources?: Record<string, string> };
}

function grantedScopes(payload: StoredGrant): string[] {
  const words = (record: Record<string, string> | undefined) => Object.values(record ?? {}).flatMap((scope) => scope.split(" ").filter(Boolean));
  const rejected = new Set(words(payload.rejected?.resources));
  return [...new Set(words(payload.resources))].filter((scope) => !rejected.has(scope));
}

// A tenant's live grants, newest first.
export async function listGrants(db: Db, tenantId: string): Promise<GrantSummary[]> {
  const client = alias(oauthRecords, "client");
  const rows = await db
    .select({
      grantId: oauthRecords.id,
      clientId: oauthRecords.clientId,
      payload: oauthRecords.payload,
      createdAt: oauthRecords.createdAt,
      expiresAt: oauthRecords.expiresAt,
      keyId: apiKeys.id,
      keyName: apiKeys.name,
      clientName: sql<string | null>`${client.payload}->>'client_name'`,
    })
    .from(oauthRecords)
    .innerJoin(apiKeys, eq(apiKeys.id, oauthRecords.accountId))
    .leftJoin(client, and(eq(client.kind, "Client"), eq(client.id, oauthRecords.clientId)))
    .where(and(eq(oauthRecords.kind, "Grant"), eq(apiKeys.tenantId, tenantId), sql`(${oauthRecords.expiresAt} is null or ${oauthRecords.expiresAt} > now())`))
    .orderBy(desc(oauthRecords.createdAt));
  return rows.map((row) => ({
    grantId: row.grantId,
    clientId: row.clientId ?? "",
    clientName: row.clientName,
    keyId: row.keyId,
    keyName: row.keyName,
    scopes: grantedScopes(row.payload as StoredGrant),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  }));
}

export interface ClientSummary {
  clientId: string;
  clientName: string | null;
  grants: number;
  lastGrantedAt: Date;
}

// The clients holding a live grant of the tenant.
export async function listClients(db: Db, tenantId: string): Promise<ClientSummary[]> {
  const byClient = new Map<string, ClientSummary>();
  for (const grant of await listGrants(db, tenantId)) {
    const known = byClient.get(grant.clientId);
    if (known) known.grants += 1;
    else byClient.set(grant.clientId, { clientId: grant.clientId, clientName: grant.clientName, grants: 1, lastGrantedAt: grant.createdAt });
  }
  return [...byClient.values()];
}

// Ends grants and everything issued under them (codes, access and refresh tokens), at once for every replica:
// access tokens are read from this table on each request.
export async function revokeGrants(db: Db, grantIds: string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await db
    .delete(oauthRecords)
    .where(or(inArray(oauthRecords.grantId, grantIds), and(eq(oauthRecords.kind, "Grant"), inArray(oauthRecords.id, grantIds))));
}

export async function revokeGrant(db: Db, grantId: string): Promise<void> {
  const rows = await db.select({ id: oauthRecords.id }).from(oauthRecords).where(and(eq(oauthRecords.kind, "Grant"), eq(oauthRecords.id, grantId)));
  if (rows.length === 0) throw new ServiceError("not_found", `No grant ${grantId}.`);
  await revokeGrants(db, [grantId]);
}

// Every grant the tenant gave one client; the number ended.
export async function revokeClientGrants(db: Db, tenantId: string, clientId: string): Promise<number> {
  const grants = (await listGrants(db, tenantId)).filter((grant) => grant.clientId === clientId).map((grant) => grant.grantId);
  if (grants.length === 0) throw new ServiceError("not_found", `Tenant ${tenantId} has no grant to client ${clientId}.`);
  await revokeGrants(db, grants);
  return grants.length;
}
