import { rotateSigningKeyBody } from "../signing-keys/rotate.js";
import { createSigningKeyBody } from "../signing-keys/keys.js";
import { callbackEventFieldsSchema, callbackSigningKeySchema } from "../callbacks/wire-schemas.js";
import { describeFields } from "./described.js";
import { listPageSchema } from "../contracts/pagination.js";
import { documentedTaskSchema } from "./task-envelope.js";

// The callback API's shapes (core/callbacks/wire-schemas.ts) with their fields described for the document.
export const documentedSigningKeySchema = describeFields(callbackSigningKeySchema, {
  object: "Always `callback_signing_key`.",
  id: "The key's id (csk_…); pass it as a task's callback_signing_key_id.",
  name: "The name given at creation.",
  status: "active, or retired for good.",
  created_at: "When the key was created.",
  rotated_at: "When its secret was last replaced.",
  retired_at: "When it was retired.",
});

export const documentedSigningKeyListSchema = listPageSchema(documentedSigningKeySchema);

export const documentedCreateSigningKeyBody = describeFields(createSigningKeyBody, {
  name: "A name for your own reference (up to 100 characters).",
});

export const documentedRotateSigningKeyBody = describeFields(rotateSigningKeyBody, {
  grace_period_seconds: "How long the previous secret keeps signing beside the new one, in seconds.",
});

export const documentedCallbackEventSchema = describeFields(callbackEventFieldsSchema, {
  event_type: "task.succeeded, task.failed or task.canceled.",
}).extend({ task: documentedTaskSchema.describe("The task as GET /v1/tasks/{task_id} answers it.") });
