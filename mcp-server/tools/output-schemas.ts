import { z } from "zod";
import { taskEnvelopeSchema } from "../../core/index.js";
import { jsonSchemaOf } from "./json-schema.js";

// The structuredContent of each tool, as JSON Schema: the task envelope of core/contracts and the list shapes
// core renders. A client validates every successful result against these.
const taskList = z.object({
  object: z.literal("list"),
  data: z.array(taskEnvelopeSchema),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

const voiceRecord = z.object({
  voice_id: z.string(),
  object: z.literal("voice"),
  type: z.enum(["preset", "cloned"]),
  name: z.string(),
  language: z.string().nullable(),
  gender: z.string().nullable(),
  models: z.array(z.string()),
  status: z.string(),
  task_id: z.string().nullable(),
  created_at: z.string().nullable(),
});

const voiceList = z.object({
  object: z.literal("list"),
  data: z.array(voiceRecord),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

const modelList = z.object({
  object: z.literal("list"),
  data: z.array(
    z.object({
      id: z.string(),
      object: z.literal("model"),
      created: z.number().int(),
      owned_by: z.string(),
      kind: z.string(),
      capabilities: z.array(z.string()),
      live: z.boolean(),
    }),
  ),
});

const uploadedAsset = z.object({
  object: z.literal("artifact"),
  type: z.literal("artifact"),
  artifact_id: z.string(),
  kind: z.string(),
  content_type: z.string(),
  byte_size: z.number().int(),
  sha256: z.string(),
  filename: z.string().nullable(),
  url: z.string(),
  url_expires_at: z.iso.datetime(),
  created_at: z.iso.datetime(),
});

export const OUTPUT_SCHEMAS = {
  task: jsonSchemaOf(taskEnvelopeSchema, "output"),
  taskList: jsonSchemaOf(taskList, "output"),
  voiceList: jsonSchemaOf(voiceList, "output"),
  modelList: jsonSchemaOf(modelList, "output"),
  asset: jsonSchemaOf(uploadedAsset, "output"),
};
