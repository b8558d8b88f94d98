import { z } from "zod";
import { codePointLength } from "./text.js";

// The fields every task-creating body accepts (SPEC.md "Common create-body fields").
export const metadataSchema = z
  .record(z.string(), z.string())
  .superRefine((metadata, ctx) => {
    const keys = Object.keys(metadata);
    if (keys.length > 16) ctx.addIssue({ code: "custom", message: "must have at most 16 keys" });
    for (const key of keys) {
      if (codePointLength(key) > 64) ctx.addIssue({ code: "custom", path: [key], message: "key must be at most 64 characters" });
      if (codePointLength(metadata[key] as string) > 512)
        ctx.addIssue({ code: "custom", path: [key], message: "value must be at most 512 characters" });
    }
  });

export const commonCreateFields = {
  metadata: metadataSchema
    .optional()
    .describe("Labels echoed on the task."),
  callback_url: z
    .url({ message: "must be an absolute URL" })
    .optional()
    .describe("HTTPS URL the final task is POSTed to."),
  callback_signing_key_id: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe("Callback signing key; needs callback_url."),
};

export interface CommonCreateInput {
  metadata?: Record<string, string> | undefined;
  callback_url?: string | undefined;
  callback_signing_key_id?: string | undefined;
}
