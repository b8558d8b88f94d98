// The structuredContent of each tool, as JSON Schema. A client validates every result against these after
// tools/list, failed calls included (the v1 SDK client validates structuredContent even when isError is true),
// so each schema admits both answers: its success shape, or {error} when the call failed. Hence no top-level
// `required` and no closed objects: the full task envelope (view "full") fits the task schema too. Each names
// only the fields a client reads first: nineteen tools repeat the task schema in tools/list, and the tool
// descriptions say what the rest holds.

type JsonSchema = Record<string, unknown>;

const STRING = { type: "string" };
const ERROR: JsonSchema = { type: ["object", "null"], properties: { code: STRING, message: STRING } };

function toolResult(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: "object", properties: { ...properties, error: ERROR } };
}

const PAGE = { data: { type: "array" }, next_cursor: { type: ["string", "null"] } };

export const OUTPUT_SCHEMAS = {
  task: toolResult({ task_id: STRING, status: STRING }),
  taskList: toolResult(PAGE),
  voiceList: toolResult(PAGE),
  modelList: toolResult({ data: { type: "array" } }),
  asset: toolResult({ artifact_id: STRING, url: STRING }),
  balance: toolResult({ available_credits: STRING }),
  quote: toolResult({ resolved_model: STRING, hold_credits: STRING }),
};
