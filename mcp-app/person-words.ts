import type { TaskError } from "./task";

// The view is read by a person. The service's messages are written for the agent: they name tools and REST paths
// and say what to call next, and the model reads them in its tool result anyway. So a refusal shows here in words
// of its own, chosen by the stable code; a code without words here shows the code alone.

const WORDS: Record<string, string> = {
  insufficient_balance: "There are not enough credits for this. Nothing was started or charged.",
  rate_limited: "Too many requests just now. Nothing was started; it can be asked again in a moment.",
  invalid_request: "Part of the request was not accepted. Nothing was started or charged.",
  unsupported_option: "The chosen model does not offer one of the settings asked for. Nothing was started or charged.",
  no_eligible_model: "No available model can make this with every setting asked for. Nothing was started or charged.",
  unsupported_model: "That model is not available for this. Nothing was started or charged.",
  unsupported_capability: "This kind of media is not available here.",
  voice_not_found: "That voice does not exist. Nothing was started or charged.",
  voice_model_incompatible: "That voice does not work with the chosen model. Nothing was started or charged.",
  safety_rejected: "The request did not pass the content safety review. Nothing was started or charged.",
  content_filtered: "The result was blocked by the content safety review.",
  idempotency_conflict: "A different request was already made under the same request id. Nothing new was started.",
  request_in_progress: "The same request is still being taken in. Nothing new was started.",
  insufficient_scope: "This connection is not allowed to do that. Signing in again with more access would allow it.",
  media_fetch_failed: "A media file given by address could not be downloaded. Nothing was started or charged.",
  invalid_media: "A media file given could not be read. Nothing was started or charged.",
  unsupported_media_type: "A media file given is of a kind this does not take. Nothing was started or charged.",
  media_too_large: "A media file given is too large. Nothing was started or charged.",
  artifact_not_found: "A file referred to no longer exists. Nothing was started or charged.",
  task_not_found: "This task can't be found.",
  model_unavailable: "The model is unavailable right now.",
  internal_error: "Something went wrong on the service's side.",
  host_call_failed: "The app hosting this view stopped passing its requests on.",
  unreadable_answer: "The service answered something this view can't read.",
};

// Refusals whose words do not say which part of the request they are about.
const ABOUT_A_FIELD = new Set(["invalid_request", "unsupported_option", "media_fetch_failed", "invalid_media", "unsupported_media_type", "media_too_large"]);

// Which field of the request a refusal is about, as a person would name it: the last step of its JSON Pointer.
function field(param: string | undefined): string {
  const name = param?.split("/").filter(Boolean).at(-1);
  return name && !/^\d+$/.test(name) ? ` (${name.replace(/_/g, " ")})` : "";
}

export function personWords(problem: TaskError): string {
  const words = WORDS[problem.code];
  if (!words) return `The request was refused (${problem.code}).`;
  return ABOUT_A_FIELD.has(problem.code) ? `${words}${field(problem.param)}` : words;
}
