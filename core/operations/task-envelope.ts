import { z } from "zod";
import { errorObjectSchema, taskEnvelopeSchema } from "../contracts/envelope-schema.js";
import { ERROR_CATALOGUE, type ErrorCode } from "../errors/catalogue.js";
import { describeFields } from "./described.js";
import { listPageSchema } from "../contracts/pagination.js";
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

const shape = taskEnvelopeSchema.shape;

const social = describeFields(shape.social, {
  platform: "The surface that created the task: rest or mcp.",
  operation_key: "The capability id.",
  operation_name: "The operation's name on MCP (its tool).",
  schema_hash: "Hash of the capability's input schema when the task was created.",
});
const progress = describeFields(shape.progress.unwrap(), {
  percent: "0 to 100.",
  stage: "The current stage, e.g. queued_at_vendor, generating, storing.",
  message: "The stage, for people.",
});
const warning = describeFields(shape.warnings.element, {
  code: "What was adjusted.",
  message: "The adjustment, for people.",
  field: "JSON Pointer to the request field concerned.",
});
const usageFields = shape.usage.unwrap();
const usageLine = describeFields(usageFields.shape.lines.element, {
  meter: "What was counted.",
  quantity: "How many units.",
  unit: "The unit.",
  billed_amount_credits: "The line's amount.",
});
const counted = (what: string) => `${what}, as measured.`;
const usage = describeFields(usageFields.extend({ lines: usageFields.shape.lines.element.array() }), {
  input_tokens: counted("Input tokens"),
  output_tokens: counted("Output tokens"),
  cache_read_tokens: counted("Tokens read from the vendor's cache"),
  cache_creation_tokens: counted("Tokens written to the vendor's cache"),
  reasoning_tokens: counted("Reasoning tokens"),
  image_count: counted("Images produced"),
  image_pixels: counted("Pixels produced"),
  video_seconds: counted("Video seconds, in and out"),
  input_video_seconds: counted("Input video seconds"),
  output_video_seconds: counted("Output video seconds"),
  audio_seconds: counted("Audio seconds"),
  characters: counted("Characters of text"),
  credits: "The total billed.",
}).extend({ lines: usageLine.array().describe("The billed lines.") });
const billing = describeFields(shape.billing, {
  grant_source: "Where granted credits came from, if any.",
});
const callback = describeFields(shape.callback.unwrap(), {
  url: "The callback_url.",
  status: "pending, delivered or failed.",
  attempt_count: "Delivery attempts made so far.",
  delivered_at: "When a delivery was acknowledged.",
  last_error: "Why the last attempt failed, if it did.",
});
const links = describeFields(shape.links, {
  self: "This task.",
  cancel: "POST here to cancel it.",
  assets: "Its artifacts with fresh signed URLs.",
});

export const documentedTaskSchema = describeFields(taskEnvelopeSchema, TASK_FIELDS).extend({
  social: social.describe(TASK_FIELDS.social!),
  progress: progress.nullable().describe(TASK_FIELDS.progress!),
  warnings: warning.array().describe(TASK_FIELDS.warnings!),
  usage: usage.nullable().describe(TASK_FIELDS.usage!),
  billing: billing.describe(TASK_FIELDS.billing!),
  callback: callback.nullable().describe(TASK_FIELDS.callback!),
  links: links.describe(TASK_FIELDS.links!),
  output: taskOutputSchema.nullable(),
  error: documentedErrorSchema.nullable().describe("Why the task failed; null unless it failed."),
});

export const documentedTaskListSchema = listPageSchema(documentedTaskSchema);
