// The structuredContent of each tool, as JSON Schema. A client validates every result against these after
// tools/list, failed calls included (the v1 SDK client validates structuredContent even when isError is true),
// so each schema admits both answers: its success shape, or {error} when the call failed. Hence no top-level
// `required` and no closed objects: the full task envelope (view "full") fits the task schema too. Each names
// only the fields a client reads first, since nineteen tools repeat the task schema in tools/list.

type JsonSchema = Record<string, unknown>;

const STRING = { type: "string" };
const ERROR: JsonSchema = {
  type: ["object", "null"],
  properties: { code: STRING, message: STRING, retryable: { type: "boolean" }, param: STRING },
  required: ["code", "message"],
};

function toolResult(properties: Record<string, JsonSchema>, description: string): JsonSchema {
  return { type: "object", description: `${description}; when the call failed, {error} instead.`, properties: { ...properties, error: ERROR } };
}

const PAGE = { data: { type: "array" }, has_more: { type: "boolean" }, next_cursor: { type: ["string", "null"] } };

export const OUTPUT_SCHEMAS = {
  task: toolResult(
    { task_id: STRING, status: { enum: ["queued", "running", "succeeded", "failed", "canceled"] }, output: { type: ["object", "null"] } },
    "The task: a summary, or the whole envelope with view full",
  ),
  taskList: toolResult(PAGE, "A page of tasks, newest first"),
  voiceList: toolResult(PAGE, "A page of voices"),
  modelList: toolResult({ data: { type: "array" } }, "Models"),
  asset: toolResult({ artifact_id: STRING, url: STRING }, "The stored artifact"),
  balance: toolResult({ available_credits: STRING, held_credits: STRING }, "Your credit balance"),
  quote: toolResult({ resolved_model: STRING, hold_credits: STRING, sufficient_balance: { type: "boolean" } }, "What the request would cost"),
};
