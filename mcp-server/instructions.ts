import { styledNames, type ToolNameStyle } from "./tools/tool-names.js";
import { MAX_WAIT_SECONDS } from "./tools/task-wait.js";

// What every agent is told at connection: the asynchronous task contract of SPEC.md, in the order it matters.
const INSTRUCTIONS = `This server runs media generation and understanding (speech, voices, music, images, videos) as asynchronous tasks, paid in credits.

1. Submit each piece of work ONCE with a task-creating tool (for example svc.speech.synthesize or svc.music.generate) and a fresh client_request_id (a UUID). The answer is a task with a task_id in status queued.
2. Then poll svc.tasks.get with that task_id until status is succeeded, failed or canceled. Pass wait_seconds (up to ${MAX_WAIT_SECONDS}) to let the server wait for you.
3. queued and running are not failures. Never resubmit the work while its task is queued or running: keep polling the same task_id.
4. If a create call's answer is lost, call it again with the SAME client_request_id and arguments: you get the same task and are charged once. Use a new client_request_id only for new or changed work.
5. Credits: creating a task holds its price at once; generation is charged on success and refunded in full on failure or cancel; understanding and prompt enhancement charge the measured amount (at most the hold) on success. svc.tasks.quote tells the price and the model auto would pick without creating anything; svc.credits.get shows your balance.
6. Failures come back with isError and an error {code, type, message, retryable, param, details, request_id}, in structuredContent and as JSON text. Retry only when retryable is true; param points at the argument to fix. insufficient_scope lists missing_scopes: re-authorize with them.
7. Artifacts (audio, images, video) come back as resource links: read them with resources/read, or download their signed URL (in output.artifacts) promptly. The answer that sees an image task end shows its images as thumbnails; later reads show them with thumbnails: true.
8. Create tools type their main arguments and name the others; svc.models.list with capability set to the tool's name gives every argument with its type and limits, and with model that model's limits. Every create tool also takes metadata (string labels), callback_url and callback_signing_key_id.
9. A media input is {type: "url", url} (HTTPS, or a data URI where the field allows) or {type: "artifact", artifact_id}: upload local media with svc.assets.upload to get an artifact_id. svc.voices.list shows voices.`;

export function serverInstructions(style: ToolNameStyle): string {
  return styledNames(INSTRUCTIONS, style);
}
