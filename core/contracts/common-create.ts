import { z } from "zod";
import { metadataSchema } from "./metadata.js";

// The fields every task-creating body accepts (SPEC.md "Common create-body fields").
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
