import { styledNames, type ToolNameStyle } from "./tools/tool-names.js";
import { MAX_WAIT_SECONDS } from "./tools/task-query-tools.js";

// What every agent is told at connection: the asynchronous task contract of SPEC.md, in the order it matters.
const INSTRUCTIONS = `This server runs media generation and understanding (speech, voices, music, images, videos) as asynchronous tasks, paid in credits.

1. Submit each piece of work ONCE with a task-creating tool (for example svc.speech.synthesize or svc.music.generate) and a fresh client_request_id (a UUID). The answer is a task with a task_id in status queued.
2. Then poll svc.tasks.get with that task_id until status is succeeded, failed or canceled. Pass wait_seconds (up to ${MAX_WAIT_SECONDS}) to let the server wait for you.
3. queued and running are not failures. Never resubmit the work while its task is queued or running: keep polling the same task_id.
4. If a create call's answer is lost, call it again with the SAME client_request_id and arguments: you get the same task and are charged once. Use a new client_request_id only for new or changed work.
5. Credits: creating a task holds its price at once; generation is charged on success and refunded in full on failure or cancel; understanding and prompt enhancement charge the measured amount (at most the hold) on success. svc.tasks.quote tells the price and the model auto would pick without creating anything; svc.credits.get shows your balance.
6. Failures come back with isError and an error {code, type, message, retryable, param, details, request_id}, in structuredContent and as JSON text. Retry only when retryable is true; param points at the argument to fix. insufficient_scope lists missing_scopes: re-authorize with them.
7. Artifacts (audio, images, video) come back as resource links: read them with resources/read, or download their signed URL (in output.artifacts) promptly. Finished image tasks also show thumbnails.
8. To use local media as an input, upload it with svc.assets.upload and pass {type: "artifact", artifact_id}. svc.voices.list and svc.models.list show voices and models.`;

export function serverInstructions(style: ToolNameStyle): string {
  return styledNames(INSTRUCTIONS, style);
}
