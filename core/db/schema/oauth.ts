import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

// What the built-in authorization server (oidc-provider) keeps, one row per stored model instance, so every MCP
// replica answers every step of a sign-in. `kind` is oidc-provider's model name (Client, Grant, Session,
// Interaction, AuthorizationCode, AccessToken, RefreshToken, …). A model whose id is a credential (a token, a code,
// a cookie's value) is stored under the SHA-256 of that id and without it in `payload`, as API keys are: the table
// never holds a usable credential. `account_id` is the API key a person signed in with; `grant_id` ties tokens to
// the grant that revokes them all; `uid` finds a session by its fixed id. `granted_at`, on a client's row: when a
// person first granted it access; a registered client never granted is bounded in number and dropped after a
// while (core/oauth/server/registration-bounds.ts), and found through the partial index on its age.
export const oauthRecords = pgTable(
  "oauth_records",
  {
    kind: text("kind").notNull(),
    id: text("id").notNull(),
    payload: jsonb("payload").notNull(),
    grantId: text("grant_id"),
    uid: text("uid"),
    accountId: text("account_id"),
    clientId: text("client_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    grantedAt: timestamp("granted_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index("oauth_records_grant_idx").on(t.grantId),
    index("oauth_records_uid_idx").on(t.kind, t.uid),
    index("oauth_records_account_idx").on(t.accountId),
    index("oauth_records_expires_idx").on(t.expiresAt),
    index("oauth_records_ungranted_clients_idx").on(t.createdAt).where(sql`${t.kind} = 'Client' and ${t.grantedAt} is null`),
  ],
);
