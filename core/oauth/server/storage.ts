import { createHash } from "node:crypto";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Db } from "../../db/client.js";
import { oauthRecords } from "../../db/schema/index.js";
import { markClientGranted } from "./registration-bounds.js";

// Models whose id is no secret: a client id is public, a grant id names a consent. Every other model's id is a
// credential (a token, a code, a session's or an interaction's cookie) and is stored hashed.
const KINDS_STORED_IN_CLEAR = new Set(["Client", "Grant"]);

export function storedId(kind: string, id: string): string {
  return KINDS_STORED_IN_CLEAR.has(kind) ? id : createHash("sha256").update(id).digest("hex");
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

const live = () => or(isNull(oauthRecords.expiresAt), gt(oauthRecords.expiresAt, sql`now()`));

// oidc-provider's storage (its adapter interface, one instance per model name) on the service's database: what
// one MCP replica stores, any other reads. Expired rows read as absent until dropExpiredOauthRecords drops them.
export class OauthStorage implements Adapter {
  constructor(
    private readonly db: Db,
    private readonly kind: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const key = storedId(this.kind, id);
    // The hashed models' own id (jti) is given back by find from the id asked for, never stored.
    const { jti: _jti, ...rest } = payload;
    const stored = key === id ? payload : rest;
    const row = {
      payload: stored,
      grantId: text(payload.grantId),
      uid: text(payload.uid),
      accountId: text(payload.accountId),
      clientId: text(payload.clientId) ?? text(payload.client_id),
      expiresAt: expiresIn ? sql`now() + make_interval(secs => ${expiresIn})` : null,
    };
    await this.db
      .insert(oauthRecords)
      .values({ kind: this.kind, id: key, ...row })
      .onConflictDoUpdate({ target: [oauthRecords.kind, oauthRecords.id], set: row });
    // A grant saved is a person's consent to its client: that client is no longer one registered and never used.
    if (this.kind === "Grant" && row.clientId) await markClientGranted(this.db, row.clientId);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oauthRecords.id, storedId(this.kind, id)), id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oauthRecords.uid, uid), null);
  }

  // The device flow is off: no user codes.
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    await this.db
      .update(oauthRecords)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(oauthRecords.kind, this.kind), eq(oauthRecords.id, storedId(this.kind, id))));
  }

  async destroy(id: string): Promise<void> {
    await this.db.delete(oauthRecords).where(and(eq(oauthRecords.kind, this.kind), eq(oauthRecords.id, storedId(this.kind, id))));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.delete(oauthRecords).where(and(eq(oauthRecords.kind, this.kind), eq(oauthRecords.grantId, grantId)));
  }

  // `id`: the id asked for, given back as the hashed models' jti; null when found otherwise (a session by uid,
  // whose jti is its cookie's value and stays unknown: oidc-provider then reads it as a new session's).
  private async findWhere(condition: ReturnType<typeof eq>, id: string | null): Promise<AdapterPayload | undefined> {
    const rows = await this.db
      .select({ payload: oauthRecords.payload, consumedAt: oauthRecords.consumedAt, id: oauthRecords.id })
      .from(oauthRecords)
      .where(and(eq(oauthRecords.kind, this.kind), condition, live()))
      .limit(1);
    const row = rows[0];
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return {
      ...payload,
      ...(id !== null && !KINDS_STORED_IN_CLEAR.has(this.kind) ? { jti: id } : {}),
      ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}),
    };
  }
}

// Records past their expiry (they already read as absent), dropped now and then by each MCP replica.
export async function dropExpiredOauthRecords(db: Db): Promise<void> {
  await db.delete(oauthRecords).where(sql`${oauthRecords.expiresAt} <= now()`);
}
