import { z } from "zod";
import { listPageSchema } from "../contracts/pagination.js";

// The wire shapes of the non-task answers, documented once: OpenAPI's response schemas come from these, and the
// operations table checks each use case's answer type against them at compile time.
const credits = z.string().regex(/^-?\d+\.\d{6}$/);
const dateTime = z.iso.datetime();

export const creditBalanceSchema = z.object({
  object: z.literal("credit_balance").describe("Always `credit_balance`."),
  available_credits: credits.describe("Credits you can spend now (decimal string, 6 places)."),
  held_credits: credits.describe("Credits held for tasks not yet finished."),
  spent_credits: credits.describe("Credits charged so far."),
  granted_credits: credits.describe("Credits granted so far."),
  spend_limits: z
    .array(
      z.object({
        scope: z.enum(["tenant", "key"]).describe("Whose limit: the whole tenant's, or one API key's."),
        owner: z.string().describe("The tenant's id or the API key's id."),
        period: z.enum(["day", "month"]).describe("The calendar period (UTC) the limit applies to."),
        limit_credits: credits.describe("Credits that may be held in one period."),
        spent_credits: credits.describe("Credits held in the current period (refunds give theirs back)."),
        resets_at: dateTime.describe("When the current period ends and the limit starts again."),
      }),
    )
    .describe("Spend limits of the tenant and its keys; an admission that would pass one is refused with insufficient_balance."),
  entries: z
    .array(
      z.object({
        id: z.string().describe("The ledger entry's id."),
        kind: z.string().describe("What moved the balance: grant, hold, charge, release, refund…"),
        amount_credits: credits.describe("The signed amount of the entry."),
        task_id: z.string().nullable().describe("The task the entry belongs to, if any."),
        note: z.string().nullable().describe("A free-text note, if any."),
        created_at: dateTime.describe("When the entry was written."),
      }),
    )
    .describe("A page of the ledger, newest first: the most recent entries (50 unless `limit` says otherwise), or those older than `cursor`."),
  has_more: z.boolean().describe("Whether older ledger entries follow."),
  next_cursor: z.string().nullable().describe("Pass as `cursor` to read the older entries; null on the last page."),
});

export const voiceSchema = z.object({
  voice_id: z.string().describe("Pass as `voice_id` to speech; a preset's name or a cloned voice's voice_… id."),
  object: z.literal("voice").describe("Always `voice`."),
  type: z.enum(["preset", "cloned"]).describe("A catalog preset, or a voice you cloned."),
  name: z.string().describe("A preset's name, or the display_name a clone was created with."),
  language: z.string().nullable().describe("The voice's language tag, where known."),
  gender: z.string().nullable().describe("A preset's gender, where given."),
  models: z.array(z.string()).describe("The speech models that can speak with this voice."),
  status: z.string().describe("active, or pending while a clone is being created."),
  task_id: z.string().nullable().describe("The voice-clone task that created it (cloned voices)."),
  created_at: dateTime.nullable().describe("When a cloned voice was created; null for presets."),
});

export const voiceListSchema = listPageSchema(voiceSchema);

export const deletedVoiceSchema = z.object({
  voice_id: z.string().describe("The deleted voice's id."),
  object: z.literal("voice").describe("Always `voice`."),
  deleted: z.literal(true).describe("Always true: the voice no longer resolves."),
});

const artifactFields = {
  object: z.literal("artifact").describe("Always `artifact`."),
  artifact_id: z.string().describe("The artifact's id (art_…)."),
  kind: z.string().describe("image, video or audio."),
  content_type: z.string().describe("The media type it is served with, as its bytes show it."),
  byte_size: z.number().int().describe("Size in bytes."),
  sha256: z.string().describe("Hex SHA-256 of the bytes."),
  url: z.string().describe("Signed download URL; no API key needed until it expires."),
  url_expires_at: dateTime.describe("When `url` stops working."),
  created_at: dateTime.describe("When the artifact was stored."),
};

export const uploadedAssetSchema = z.object({
  ...artifactFields,
  type: z.literal("artifact").describe("Lets the answer be passed as a media input as it is."),
  filename: z.string().nullable().describe("The filename given at upload, if any."),
});

export const taskAssetListSchema = z.object({
  object: z.literal("list").describe("Always `list`."),
  data: z.array(z.object(artifactFields)).describe("The task's artifacts, with fresh signed URLs."),
});

const modelListItemFields = {
  id: z.string().describe("The model id, for a request's `model`."),
  object: z.literal("model").describe("Always `model`."),
  created: z.number().int().describe("Unix seconds when the model entered the catalog."),
  owned_by: z.string().describe("The vendor family that serves it."),
  kind: z.string().describe("image, video, music, speech, voice_clone, understanding or video_prompt_enhancement."),
  capabilities: z.array(z.string()).describe("The capabilities that can choose this model."),
  live: z.boolean().describe("Whether requests can run on it: its vendor is configured on this deployment and it has not retired."),
  lifecycle: z
    .enum(["active", "deprecated", "retired"])
    .describe("`deprecated` from `deprecated_at`: still served, with a `model_deprecated` warning and Deprecation and Sunset headers, and `auto` passes over it while a compatible model that is not deprecated remains; `retired` from `retires_at`: a request naming it is refused with `unsupported_model`."),
  deprecated_at: z.iso.datetime().nullable().describe("From when the model is discouraged; null when no retirement is set."),
  retires_at: z.iso.datetime().nullable().describe("From when requests naming the model are refused; null when no retirement is set."),
  replacement: z.string().nullable().describe("The model the operator points to instead, if any."),
};

export const modelListSchema = z.object({
  object: z.literal("list").describe("Always `list`."),
  data: z.array(z.object(modelListItemFields)).describe("The live models."),
});

const priceSchema = z.object({
  meter: z.string().describe("What is counted (characters, audio_seconds, image_count…)."),
  unit: z.string().describe("The unit of the meter."),
  per: z.string().describe("How many units the price is for."),
  price_credits: credits.describe("Credits per `per` units."),
  when: z.record(z.string(), z.unknown()).optional().describe("The request options this price applies to."),
});

const optionalNumber = (description: string) => z.number().optional().describe(description);
const sideFields = { min_side: optionalNumber("Shortest side in pixels."), max_side: optionalNumber("Longest side in pixels.") };
const maxBytes = optionalNumber("Largest file in bytes.");
const clipLimitFields = {
  formats: z.array(z.string()).optional().describe("Containers taken (mp4, mov, webm; mp3, wav, flac, ogg, m4a)."),
  min_seconds: optionalNumber("Shortest length in seconds."),
  max_seconds: optionalNumber("Longest length in seconds."),
  max_bytes: maxBytes,
};
const imageLimitsSchema = z.object({
  formats: z.array(z.string()).optional().describe("Formats taken, as sniffed from the bytes (png, jpeg, webp, gif)."),
  ...sideFields,
  max_pixels: optionalNumber("Most pixels (width × height)."),
  min_aspect: optionalNumber("Smallest width / height."),
  max_aspect: optionalNumber("Largest width / height."),
  max_bytes: maxBytes,
});
const videoLimitsSchema = z.object({
  ...clipLimitFields,
  codecs: z.array(z.string()).optional().describe("Video codecs taken, as ffprobe names them (h264, hevc)."),
  ...sideFields,
  min_fps: optionalNumber("Lowest frame rate."),
  max_fps: optionalNumber("Highest frame rate."),
});
const audioLimitsSchema = z.object({
  ...clipLimitFields,
  min_sample_rate: optionalNumber("Lowest sample rate in Hz."),
  max_sample_rate: optionalNumber("Highest sample rate in Hz."),
});

// core/catalog/input-limits.ts: what the model's vendor publishes about its inputs; an absent bound is unpublished.
const inputLimitsSchema = z.object({
  image: imageLimitsSchema.optional().describe("Every image input."),
  video: videoLimitsSchema.optional().describe("Every video input."),
  audio: audioLimitsSchema.optional().describe("Every audio input."),
  reference_image: imageLimitsSchema.optional().describe("`references[].media` of kind image, where it differs."),
  reference_video: videoLimitsSchema.optional().describe("`references[].media` of kind video, where it differs."),
  reference_audio: audioLimitsSchema.optional().describe("`references[].media` of kind audio, where it differs."),
  total_seconds: z
    .object({
      video: z.number().optional().describe("Seconds of every video input together."),
      audio: z.number().optional().describe("Seconds of every audio input together."),
    })
    .optional()
    .describe("Longest the inputs of one kind may last together."),
  text: z.record(z.string(), z.number()).optional().describe("Most characters per text field of the request."),
});

export const modelCardSchema = z.object({
  ...modelListItemFields,
  shape: z.string().describe("Which family of options the model takes."),
  cancel_while_running: z
    .boolean()
    .describe("Whether a task running on it can be canceled (its vendor job is stopped); a queued task always can, and a running one on a model without it answers 409 conflict."),
  description: z.string().describe("What the model is good at."),
  constraints: z.record(z.string(), z.unknown()).describe("The limits validation holds requests to (sizes, durations, counts)."),
  input_limits: inputLimitsSchema.describe("The input limits the model's vendor publishes, checked before a task is paid for."),
  prices: z.array(priceSchema).describe("Its price lines."),
});

const capabilityListItemFields = {
  id: z.string().describe("The capability id."),
  object: z.literal("capability").describe("Always `capability`."),
  method: z.string().describe("The HTTP method that creates its tasks."),
  path: z.string().describe("The path that creates its tasks."),
  summary: z.string().describe("What it does."),
  tool_name: z.string().describe("The MCP tool that creates its tasks."),
  shape: z.string().describe("Which family of options it takes."),
  billing_mode: z.string().describe("prepaid (held at creation) or postpaid (priced on completion)."),
  models: z.array(z.string()).describe("`auto` and the models it can run on; empty when it takes no model."),
};

export const capabilityListSchema = z.object({
  object: z.literal("list").describe("Always `list`."),
  data: z.array(z.object(capabilityListItemFields)).describe("Every capability."),
});

export const capabilityCardSchema = z.object({
  ...capabilityListItemFields,
  deadline_seconds: z.number().int().describe("How long a task may take before it fails."),
  input_schema: z.record(z.string(), z.unknown()).describe("The JSON Schema of its request body."),
  example: z.record(z.string(), z.unknown()).describe("An example request body."),
  model_cards: z.array(modelCardSchema).describe("The card of each model it can run on."),
});

export const livenessSchema = z.object({ ok: z.literal(true).describe("Always true while the process runs.") });

export const readinessSchema = z.object({
  ready: z.boolean().describe("Whether every check passed."),
  checks: z
    .record(z.string(), z.object({ ok: z.boolean().describe("Whether this check passed.") }).catchall(z.unknown()))
    .describe("Each check (database, migrations, workers) with its reason when it failed."),
});

export const quoteSchema = z.object({
  object: z.literal("quote").describe("Always `quote`."),
  capability: z.string().describe("The capability priced."),
  model: z.string().describe("The model the request named (or auto)."),
  resolved_model: z.string().describe("The model the create would run on."),
  model_selection_reason: z.string().nullable().describe("Why `auto` chose it; null for a named model."),
  billing_mode: z.string().describe("prepaid or postpaid."),
  price_credits: credits.describe("The price the create would charge (an estimate for postpaid)."),
  hold_credits: credits.describe("What the create would hold from your balance."),
  lines: z
    .array(
      z.object({
        meter: z.string().describe("What is counted."),
        quantity: z.string().describe("How many units."),
        unit: z.string().describe("The unit."),
        amount_credits: credits.describe("The line's amount."),
      }),
    )
    .describe("The price, line by line."),
  available_credits: credits.describe("Your available balance now."),
  sufficient_balance: z.boolean().describe("Whether the balance covers the hold."),
});
