import { z } from "zod";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { Db, Executor } from "../db/client.js";
import { invalidRequest, ServiceError, zodFailures } from "../errors/index.js";
import { decodeCursor, pageOf, pageQuerySchema, parseListQuery } from "../contracts/pagination.js";
import type { IdGenerator } from "../ids.js";
import { encryptSecret, generateSigningSecret } from "./secret-box.js";
import { findSigningKey, insertSigningKey, listSigningKeys, markSigningKeyRetired, type SigningKeyRow } from "./repository.js";

// The signing-key API (SPEC.md names the keys, docs/decisions.md says how they are managed): create, list, read,
// rotate (rotate.ts) and retire. A secret is in a response only when it is created or rotated.

// The parts of the runtime the signing-key API uses.
export interface SigningKeyRuntime {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  config: Pick<Config, "callbackSecretKey">;
}

export function signingKeyView(row: SigningKeyRow, now: Date, secret?: string) {
  const graceOpen = row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now;
  return {
    object: "callback_signing_key" as const,
    id: row.id,
    name: row.name,
    status: row.status as "active" | "retired",
    created_at: row.createdAt.toISOString(),
    rotated_at: row.rotatedAt?.toISOString() ?? null,
    retired_at: row.retiredAt?.toISOString() ?? null,
    // While this is in the future, deliveries carry a second signature made with the secret the last rotation replaced.
    previous_secret_expires_at: graceOpen ? row.previousSecretExpiresAt!.toISOString() : null,
    ...(secret !== undefined ? { secret } : {}),
  };
}

function keyError(code: "callback_signing_key_not_found" | "callback_signing_key_inactive", message: string, keyId: string, param?: string) {
  return new ServiceError(code, message, { ...(param ? { param } : {}), details: { key_id: keyId } });
}

export function signingKeyNotFound(keyId: string, param?: string): ServiceError {
  return keyError("callback_signing_key_not_found", `No callback signing key ${keyId}.`, keyId, param);
}

export function signingKeyInactive(keyId: string, param?: string): ServiceError {
  return keyError("callback_signing_key_inactive", `Callback signing key ${keyId} is retired; create or choose an active key.`, keyId, param);
}

// A key a task may be signed with: the tenant's own (another tenant's answers as unknown), and active.
export async function requireActiveSigningKey(db: Executor, tenantId: string, keyId: string, param?: string): Promise<SigningKeyRow> {
  const row = await findSigningKey(db, tenantId, keyId);
  if (!row) throw signingKeyNotFound(keyId, param);
  if (row.status !== "active") throw signingKeyInactive(keyId, param);
  return row;
}

// A missing body is an empty object: every field of these bodies is optional.
export function parseOptionalBody<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw invalidRequest(zodFailures(parsed.error));
  return parsed.data;
}

export const createSigningKeyBody = z.object({ name: z.string().max(100).optional() }).strict();

export async function createSigningKey(core: SigningKeyRuntime, tenantId: string, raw: unknown) {
  const body = parseOptionalBody(createSigningKeyBody, raw);
  const id = core.ids.callbackSigningKey();
  const secret = generateSigningSecret();
  const now = core.clock();
  const row = await insertSigningKey(core.db, {
    id,
    tenantId,
    name: body.name ?? "",
    status: "active",
    secretCiphertext: encryptSecret(core.config.callbackSecretKey, secret, id),
    createdAt: now,
  });
  return signingKeyView(row, now, secret);
}

export async function getSigningKey(core: Pick<SigningKeyRuntime, "db" | "clock">, tenantId: string, keyId: string) {
  const row = await findSigningKey(core.db, tenantId, keyId);
  if (!row) throw signingKeyNotFound(keyId);
  return signingKeyView(row, core.clock());
}

// Retiring twice answers the retired key again; SPEC.md's callback_signing_key_inactive is for using it.
export async function retireSigningKey(core: Pick<SigningKeyRuntime, "db" | "clock">, tenantId: string, keyId: string) {
  const now = core.clock();
  const retired = await markSigningKeyRetired(core.db, tenantId, keyId, now);
  if (retired) return signingKeyView(retired, now);
  return getSigningKey(core, tenantId, keyId);
}

export const signingKeyListQuerySchema = pageQuerySchema.strict();

// Newest first; the cursor is the last key of a page, {v: 1, before: id}.
function signingKeyPosition(value: Record<string, unknown>): string | undefined {
  return value.v === 1 && typeof value.before === "string" && /^csk_[0-9a-z]{26}$/.test(value.before) ? value.before : undefined;
}

export async function listSigningKeysPage(core: Pick<SigningKeyRuntime, "db" | "clock">, tenantId: string, query: Record<string, unknown>) {
  const { limit, cursor } = parseListQuery(signingKeyListQuerySchema, query);
  const beforeId = cursor !== undefined ? decodeCursor(cursor, signingKeyPosition, "query") : undefined;
  const rows = await listSigningKeys(core.db, { tenantId, beforeId, limit: limit + 1 });
  const now = core.clock();
  return pageOf(rows, limit, (last) => ({ v: 1, before: last.id }), (row) => signingKeyView(row, now));
}
