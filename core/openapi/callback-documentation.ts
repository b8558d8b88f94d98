import type { z } from "zod";
import { createSigningKeyBody } from "../callbacks/signing-keys.js";
import { rotateSigningKeyBody } from "../callbacks/rotate-signing-key.js";
import {
  CALLBACK_DELIVERY_HEADERS,
  callbackEventFieldsSchema,
  callbackSigningKeyListSchema,
  callbackSigningKeySchema,
} from "../callbacks/wire-schemas.js";

type ToJsonSchema = (schema: z.ZodType, io?: "input" | "output") => Record<string, unknown>;

// The callback parts of the OpenAPI document: the signing-key shapes, and the delivery itself as an OpenAPI 3.1
// webhook (what the service POSTs to a task's callback_url).
export function callbackSchemas(jsonSchema: ToJsonSchema): Record<string, unknown> {
  const event = jsonSchema(callbackEventFieldsSchema);
  return {
    CallbackSigningKey: jsonSchema(callbackSigningKeySchema),
    CallbackSigningKeyList: jsonSchema(callbackSigningKeyListSchema),
    CreateCallbackSigningKeyRequest: jsonSchema(createSigningKeyBody, "input"),
    RotateCallbackSigningKeyRequest: jsonSchema(rotateSigningKeyBody, "input"),
    CallbackEvent: {
      ...event,
      properties: { ...(event.properties as Record<string, unknown>), task: { $ref: "#/components/schemas/TaskEnvelope" } },
      required: ["event_id", "event_type", "event_time", "task"],
    },
  };
}

export function callbackWebhooks() {
  return {
    taskCallback: {
      post: {
        summary:
          "Sent to a task's callback_url when it reaches a terminal state. Answer 2xx within 10 seconds; anything else " +
          "(a redirect included, which is not followed) is retried after 1 minute, 5 minutes, 30 minutes, 2 hours and 12 hours.",
        operationId: "taskCallback",
        security: [],
        parameters: CALLBACK_DELIVERY_HEADERS.map((h) => ({
          name: h.name,
          in: "header",
          required: !h.name.startsWith("X-Signature"),
          description: h.description,
          schema: { type: "string" },
        })),
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/CallbackEvent" } } } },
        responses: { "200": { description: "Any 2xx acknowledges the event" } },
      },
    },
  };
}
