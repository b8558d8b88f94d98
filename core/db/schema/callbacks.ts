import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.js";

// A tenant's callback signing keys. Secrets are stored only encrypted (AES-256-GCM, key from configuration).
// Rotation keeps the replaced secret, still signing, until `previous_secret_expires_at`; retirement erases both.
export const callbackSigningKeys = pgTable(
  "callback_signing_keys",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    name: text("name").notNull().default(""),
    status: text("status").notNull().default("active"),
    secretCiphertext: text("secret_ciphertext"),
    previousSecretCiphertext: text("previous_secret_ciphertext"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    rotatedAt: timestamp("rotated_at", { withTimezone: true }),
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  (t) => [
    check("callback_signing_keys_status_check", sql`${t.status} in ('active', 'retired')`),
    check(
      "callback_signing_keys_secret_check",
      sql`(${t.status} = 'active') = (${t.secretCiphertext} is not null)`,
    ),
    index("callback_signing_keys_tenant_id_idx").on(t.tenantId, t.id),
  ],
);
