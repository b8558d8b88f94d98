import { CALLBACK_DELIVERY_HEADERS } from "../callbacks/wire-schemas.js";

// The delivery of a task's callback as an OpenAPI 3.1 webhook (what the service POSTs to a task's callback_url).
export function callbackWebhooks(example: unknown) {
  return {
    taskCallback: {
      post: {
        summary: "A task's callback event",
        description:
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
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/CallbackEvent" }, examples: { succeeded: { value: example } } } },
        },
        responses: { "200": { description: "Any 2xx acknowledges the event" } },
      },
    },
  };
}
