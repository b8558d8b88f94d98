import { z } from "zod";

// A finished task's `output` as every capability renders it (core/tasks/outputs.ts, core/tasks/envelope.ts): the
// stored artifacts with signed URLs, plus fields some capabilities add (`text`, `clips`, capability data).
export const outputArtifactSchema = z
  .object({
    artifact_id: z.string().describe("The artifact's id (art_…); pass {type: \"artifact\", artifact_id} to reuse it as a media input."),
    kind: z.enum(["image", "video", "audio"]).describe("What the artifact is."),
    role: z.string().optional().describe("The artifact's part in a multi-file output, where the capability names one."),
    content_type: z.string().describe("The media type the download is served with, as the bytes show it."),
    byte_size: z.number().int().describe("Size of the file in bytes."),
    format: z.string().describe("The container or codec format, e.g. mp3, png, mp4."),
    width: z.number().int().optional().describe("Images and video: width in pixels."),
    height: z.number().int().optional().describe("Images and video: height in pixels."),
    duration_seconds: z.number().optional().describe("Audio and video: duration in seconds."),
    sample_rate: z.number().int().optional().describe("Audio: sample rate in Hz."),
    channels: z.number().int().optional().describe("Audio: channel count."),
    has_audio: z.boolean().optional().describe("Video: whether it carries an audio track."),
    url: z.string().describe("Signed download URL (GET, Range supported); no API key needed until it expires."),
    url_expires_at: z.iso.datetime().describe("When `url` stops working; read the task again for a fresh one."),
    expired_at: z.iso
      .datetime()
      .optional()
      .describe("Present once retention deleted the artifact's bytes (ARTIFACT_RETENTION_DAYS): `url` then answers 410."),
  })
  .catchall(z.unknown());

export const taskOutputSchema = z
  .object({
    type: z.string().describe("The kind of the first artifact (image, video, audio), or the capability for music and voice clones."),
    text: z.string().optional().describe("Text the task produced (understanding, prompt enhancement), where it produces text."),
    artifacts: z.array(outputArtifactSchema).describe("The files the task produced, in order."),
    clips: z.array(outputArtifactSchema).optional().describe("Music: the tracks, the same artifacts as `artifacts`."),
  })
  .catchall(z.unknown())
  .describe("What the task produced; null until it succeeds.");
