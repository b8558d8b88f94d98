import { z } from "zod";
import { errorObjectSchema, taskEnvelopeSchema } from "../contracts/envelope-schema.js";
import { ERROR_CATALOGUE, type ErrorCode } from "../errors/catalogue.js";
import { listPageSchema } from "./pagination.js";
import { taskOutputSchema } from "./task-output.js";

// The documented forms of the shared wire shapes: `error.code` as the catalogue's codes and a task's `output` with
// its artifacts, so a generated client reads both without a cast. The contract schemas stay the source of the
// other fields.
const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

export const documentedErrorSchema = errorObjectSchema.extend({
  code: z.enum(ERROR_CODES).describe("The error's code (the catalogue of SPEC.md); branch on it, never on the message."),
  type: z.string().describe("The code's family (authentication_error, invalid_request_error, …)."),
  message: z.string().describe("What went wrong and what to do, for people."),
  retryable: z.boolean().describe("Whether the same request may succeed later (reuse its Idempotency-Key)."),
  param: z.string().optional().describe("JSON Pointer to the request body field at fault, when one is."),
  details: z.record(z.string(), z.unknown()).optional().describe("Machine-readable facts about the refusal."),
  request_id: z.string().optional().describe("The request's id, as in X-Request-Id; quote it when asking for help."),
});

export const documentedErrorEnvelopeSchema = z.object({ error: documentedErrorSchema });

export const documentedTaskSchema = taskEnvelopeSchema.extend({
  output: taskOutputSchema.nullable(),
  error: documentedErrorSchema.nullable().describe("Why the task failed; null unless it failed."),
});

export const documentedTaskListSchema = listPageSchema(documentedTaskSchema);
