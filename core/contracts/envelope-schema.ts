import { z } from "zod";

// The wire shapes every surface returns, as schemas: OpenAPI and the MCP tools' output schemas are generated
// from these. `core/tasks/envelope.ts` renders them.
const credits = z.string().regex(/^-?\d+\.\d{6}$/).describe("credits as a fixed-point decimal string");
const dateTime = z.iso.datetime().nullable();

export const errorObjectSchema = z
  .object({
    code: z.string(),
    type: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    param: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    request_id: z.string().optional(),
  });

export const errorEnvelopeSchema = z.object({ error: errorObjectSchema });

const usageLine = z.object({ meter: z.string(), quantity: z.string(), unit: z.string(), billed_amount_credits: credits });

export const taskEnvelopeSchema = z
  .object({
    object: z.literal("task"),
    task_id: z.string(),
    status: z.enum(["queued", "running", "succeeded", "failed", "canceled"]),
    capability: z.string(),
    workload_type: z.string(),
    model: z.string(),
    resolved_model: z.string(),
    model_selection_reason: z.string().nullable(),
    social: z.object({
      platform: z.string(),
      operation_key: z.string(),
      operation_name: z.string(),
      schema_hash: z.string().nullable(),
    }),
    metadata: z.record(z.string(), z.string()),
    input: z.record(z.string(), z.unknown()),
    progress: z.object({ percent: z.number().int(), stage: z.string(), message: z.string() }).nullable(),
    output: z.record(z.string(), z.unknown()).nullable(),
    warnings: z.array(z.object({ code: z.string(), message: z.string(), field: z.string() })),
    error: errorObjectSchema.nullable(),
    usage: z
      .object({
        input_tokens: z.number().int(),
        output_tokens: z.number().int(),
        cache_read_tokens: z.number().int(),
        cache_creation_tokens: z.number().int(),
        reasoning_tokens: z.number().int(),
        image_count: z.number().int(),
        image_pixels: z.number().int(),
        video_seconds: z.number().int(),
        input_video_seconds: z.number().int(),
        output_video_seconds: z.number().int(),
        audio_seconds: z.number().int(),
        characters: z.number().int(),
        lines: z.array(usageLine),
        credits,
      })
      .nullable(),
    billing: z.object({
      charged_credits: credits,
      refunded_credits: credits,
      granted_credits: credits,
      grant_source: z.string(),
      net_charged_credits: credits,
    }),
    callback: z
      .object({
        url: z.string(),
        status: z.string(),
        attempt_count: z.number().int(),
        delivered_at: dateTime,
        last_error: z.string().nullable(),
      })
      .nullable(),
    created_at: z.iso.datetime(),
    started_at: dateTime,
    deadline_at: z.iso.datetime(),
    completed_at: dateTime,
    cancel_requested_at: dateTime,
    links: z.object({ self: z.string(), cancel: z.string(), assets: z.string() }),
  });
