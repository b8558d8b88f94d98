import { z } from "zod";
import { encryptSecret, generateSigningSecret } from "./secret-box.js";
import { replaceSigningSecret } from "./repository.js";
import { parseOptionalBody, requireActiveSigningKey, signingKeyInactive, signingKeyView, type SigningKeyRuntime } from "./keys.js";

// How long deliveries keep carrying a signature made with the replaced secret, so receivers can switch over
// without refusing a single delivery: 24 hours unless the caller says otherwise (0 ends it at once), at most 7 days.
const DEFAULT_GRACE_SECONDS = 86_400;
const MAX_GRACE_SECONDS = 7 * 86_400;

export const rotateSigningKeyBody = z
  .object({ grace_period_seconds: z.number().int().min(0).max(MAX_GRACE_SECONDS).optional() })
  .strict();

export async function rotateSigningKey(core: Pick<SigningKeyRuntime, "db" | "clock" | "config">, tenantId: string, keyId: string, raw: unknown) {
  const body = parseOptionalBody(rotateSigningKeyBody, raw);
  await requireActiveSigningKey(core.db, tenantId, keyId);
  const now = core.clock();
  const secret = generateSigningSecret();
  const rotated = await replaceSigningSecret(core.db, tenantId, keyId, {
    secretCiphertext: encryptSecret(core.config.callbackSecretKey, secret, keyId),
    previousExpiresAt: new Date(now.getTime() + (body.grace_period_seconds ?? DEFAULT_GRACE_SECONDS) * 1000),
    rotatedAt: now,
  });
  // Retired between the check and the update (keys are never deleted, so it exists).
  if (!rotated) throw signingKeyInactive(keyId);
  return signingKeyView(rotated, now, secret);
}
