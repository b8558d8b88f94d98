import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { decryptSecret } from "./secret-box.js";
import { findSigningKey } from "./repository.js";

export type DeliverySigning = { keyId: string; secrets: string[] } | { refused: string };

// The secrets a delivery is signed with right now: the current one, and the one the last rotation replaced while
// its grace period lasts. A retired key signs nothing, and its task's deliveries stop rather than go out unsigned.
export async function deliverySigning(core: { db: Db; config: Pick<Config, "callbackSecretKey"> }, tenantId: string, keyId: string, now: Date): Promise<DeliverySigning> {
  const row = await findSigningKey(core.db, tenantId, keyId);
  if (!row || row.status !== "active" || !row.secretCiphertext) {
    return { refused: `signing key ${keyId} was retired; deliveries are never sent unsigned or signed with a retired key` };
  }
  const key = core.config.callbackSecretKey;
  const secrets = [decryptSecret(key, row.secretCiphertext, row.id)];
  if (row.previousSecretCiphertext && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now) {
    secrets.push(decryptSecret(key, row.previousSecretCiphertext, row.id));
  }
  return { keyId: row.id, secrets };
}
