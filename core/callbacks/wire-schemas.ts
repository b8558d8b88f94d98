import { z } from "zod";

// Wire shapes of the callback API and of a delivery, for the OpenAPI document (`signing-keys.ts` renders the key,
// `send-attempt.ts` the event).
const dateTime = z.iso.datetime();

export const callbackSigningKeySchema = z.object({
  object: z.literal("callback_signing_key"),
  id: z.string(),
  name: z.string(),
  status: z.enum(["active", "retired"]),
  created_at: dateTime,
  rotated_at: dateTime.nullable(),
  retired_at: dateTime.nullable(),
  previous_secret_expires_at: dateTime
    .nullable()
    .describe("while in the future, deliveries also carry a v1 signature made with the secret the last rotation replaced"),
  secret: z.string().optional().describe("only in the answer to create and rotate; shown once, keep it safe"),
});

// The event's own fields; its `task` is the task envelope.
export const callbackEventFieldsSchema = z.object({
  event_id: z.string().describe("stable across retries and redeliveries; dedupe on it"),
  event_type: z.enum(["task.succeeded", "task.failed", "task.canceled"]),
  event_time: dateTime.describe("when the task reached its terminal state"),
});

export const CALLBACK_DELIVERY_HEADERS: readonly { name: string; description: string }[] = [
  { name: "X-Event-Id", description: "the event's id, the same on every attempt" },
  { name: "X-Delivery-Id", description: "this attempt's id" },
  { name: "X-Delivery-Attempt", description: "1 for the first attempt, then 2, 3, … (retries after 1 m, 5 m, 30 m, 2 h, 12 h)" },
  { name: "X-Task-Id", description: "the task's id" },
  { name: "X-Event-Type", description: "task.succeeded, task.failed or task.canceled" },
  { name: "X-Timestamp", description: "Unix seconds when this attempt was signed" },
  { name: "X-Signature-Key-Id", description: "signed delivery only: the signing key's id" },
  {
    name: "X-Signature",
    description:
      "signed delivery only: t=<unix_ts>,v1=<hex HMAC-SHA256 of \"<unix_ts>.<raw body>\">; during a rotation's grace " +
      "period the previous secret's v1 comes first and the new secret's last. Check every v1; reject timestamps " +
      "more than 300 s from now.",
  },
];
