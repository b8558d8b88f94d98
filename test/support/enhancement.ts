import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Harness } from "./harness.js";

export interface EnhancementOptions {
  apiKey?: string;
  idempotencyKey?: string;
  callbackUrl?: string;
}

// A prompt enhancement admitted over REST: the cheapest task there is, for tests about what happens to a task
// (starts, endings, holds, sweeps, callbacks) rather than what it makes. Answers its id.
export async function admitEnhancement(h: Harness, options: EnhancementOptions = {}): Promise<string> {
  const created = await h.request("POST", "/v1/videos/prompts/enhance", {
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    body: {
      prompt: "a red kite over a windy beach",
      duration: 5,
      aspect_ratio: "16:9",
      ...(options.callbackUrl === undefined ? {} : { callback_url: options.callbackUrl }),
    },
    idempotencyKey: options.idempotencyKey ?? randomUUID(),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  return created.body.task_id as string;
}
