import type { Executor } from "../db/client.js";
import { failure, type FieldFailure } from "../errors/index.js";
import { urlRefusal } from "../net/index.js";
import { requireActiveSigningKey } from "../signing-keys/keys.js";

interface CallbackFields {
  callback_url?: string | undefined;
  callback_signing_key_id?: string | undefined;
}

// Field checks of the callback fields, reported with the body's other field failures (422 invalid_request): an
// HTTPS URL (plain http only under the development switch), no credentials, not an IP literal of a private range.
export function callbackFieldFailures(input: CallbackFields, allowLoopbackHttp: boolean): FieldFailure[] {
  if (input.callback_url === undefined) return [];
  const refusal = urlRefusal(input.callback_url, { allowLoopbackHttp });
  return refusal ? [failure(["callback_url"], refusal)] : [];
}

// SPEC.md's creation errors after callback_url_required (checked with the body): an unknown or foreign key (404),
// a retired key (422). Checked before the admission transaction.
export async function checkCallbackSigningKey(db: Executor, tenantId: string, input: CallbackFields): Promise<void> {
  if (input.callback_signing_key_id === undefined) return;
  await requireActiveSigningKey(db, tenantId, input.callback_signing_key_id, "/callback_signing_key_id");
}
