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

// What each envelope field means, for the document (the contract schema holds the shapes).
const TASK_FIELDS: Partial<Record<keyof typeof taskEnvelopeSchema.shape, string>> = {
  object: "Always `task`.",
  task_id: "The task's id (task_…).",
  status: "queued, then running, then one of the terminal succeeded, failed or canceled.",
  capability: "The capability that created it.",
  workload_type: "The kind of work (generation or understanding).",
  model: "The model the request named (or auto).",
  resolved_model: "The model it runs on.",
  model_selection_reason: "Why `auto` chose the model; null for a named model.",
  social: "Which surface created it and the operation's name there.",
  metadata: "Your metadata, as sent.",
  input: "The request's own fields (media inputs as references, never their bytes).",
  progress: "The latest progress report while running; null when there is none.",
  warnings: "Adjustments made to the request (a field ignored, a value clamped).",
  usage: "What was measured and billed, once the task has ended.",
  billing: "Credits charged, refunded and granted for this task.",
  callback: "The callback delivery's state, when the task has a callback_url.",
  created_at: "When the task was admitted.",
  started_at: "When a worker started it.",
  deadline_at: "When it fails if still unfinished.",
  completed_at: "When it reached its terminal state.",
  cancel_requested_at: "When cancellation was asked for.",
  links: "URLs of the task, its cancel and its assets.",
};

const describedFields = Object.fromEntries(
  Object.entries(TASK_FIELDS).map(([name, text]) => [name, taskEnvelopeSchema.shape[name as keyof typeof taskEnvelopeSchema.shape].describe(text)]),
);

export const documentedTaskSchema = taskEnvelopeSchema.extend({
  ...describedFields,
  output: taskOutputSchema.nullable(),
  error: documentedErrorSchema.nullable().describe("Why the task failed; null unless it failed."),
});

export const documentedTaskListSchema = listPageSchema(documentedTaskSchema);
