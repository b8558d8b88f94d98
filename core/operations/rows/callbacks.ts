import {
  createSigningKey,
  getSigningKey,
  listSigningKeysPage,
  retireSigningKey,
  signingKeyListQuerySchema,
} from "../../signing-keys/keys.js";
import { rotateSigningKey } from "../../signing-keys/rotate.js";
import { documentedCreateSigningKeyBody, documentedRotateSigningKeyBody, documentedSigningKeyListSchema } from "../callback-schemas.js";
import { defineOperation } from "../define.js";
import { keyId, signingKey } from "./shared.js";

export const CALLBACK_OPERATIONS = [
  defineOperation({
    operationId: "createCallbackSigningKey",
    method: "POST",
    path: "/v1/callback-signing-keys",
    summary: "Create a callback signing key; the answer carries its secret, shown this once",
    area: "callbacks",
    body: { schema: documentedCreateSigningKeyBody, component: "CreateCallbackSigningKeyRequest", example: { name: "orders receiver" }, required: false },
    responses: { 201: { description: "The new key, with its secret", body: signingKey } },
    errors: ["invalid_request"],
    run: (core, call) => createSigningKey(core, call.tenantId, call.body),
  }),
  defineOperation({
    operationId: "listCallbackSigningKeys",
    method: "GET",
    path: "/v1/callback-signing-keys",
    summary: "Your callback signing keys, newest first (never their secrets)",
    area: "callbacks",
    query: signingKeyListQuerySchema,
    responses: { 200: { description: "A page of keys", body: { schema: documentedSigningKeyListSchema, component: "CallbackSigningKeyList" } } },
    errors: ["invalid_request", "invalid_cursor"],
    run: (core, call) => listSigningKeysPage(core, call.tenantId, call.query),
  }),
  defineOperation({
    operationId: "getCallbackSigningKey",
    method: "GET",
    path: "/v1/callback-signing-keys/{key_id}",
    summary: "One callback signing key",
    area: "callbacks",
    params: keyId,
    responses: { 200: { description: "The key (never its secret)", body: signingKey } },
    errors: ["callback_signing_key_not_found"],
    run: (core, call) => getSigningKey(core, call.tenantId, call.params.key_id),
  }),
  defineOperation({
    operationId: "rotateCallbackSigningKey",
    method: "POST",
    path: "/v1/callback-signing-keys/{key_id}/rotate",
    summary: "Replace the key's secret (shown this once); the old secret keeps signing alongside for the grace period",
    area: "callbacks",
    params: keyId,
    body: {
      schema: documentedRotateSigningKeyBody,
      component: "RotateCallbackSigningKeyRequest",
      example: { grace_period_seconds: 86400 },
      required: false,
    },
    responses: { 200: { description: "The key, with its new secret", body: signingKey } },
    errors: ["callback_signing_key_not_found", "callback_signing_key_inactive", "invalid_request"],
    run: (core, call) => rotateSigningKey(core, call.tenantId, call.params.key_id, call.body),
  }),
  defineOperation({
    operationId: "retireCallbackSigningKey",
    method: "POST",
    path: "/v1/callback-signing-keys/{key_id}/retire",
    summary: "Retire a key for good: new tasks cannot choose it and deliveries are no longer signed with it",
    area: "callbacks",
    params: keyId,
    responses: { 200: { description: "The retired key", body: signingKey } },
    errors: ["callback_signing_key_not_found"],
    run: (core, call) => retireSigningKey(core, call.tenantId, call.params.key_id),
  }),
] as const;
