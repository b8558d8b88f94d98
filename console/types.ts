// The parts of the API's answers the console reads (the OpenAPI document at /v1/openapi.json has them in full).

export interface Artifact {
  artifact_id: string;
  kind: "image" | "video" | "audio";
  role?: string;
  content_type: string;
  byte_size: number;
  format: string;
  width?: number;
  height?: number;
  duration_seconds?: number;
  url: string;
}

export interface UsageLine {
  meter: string;
  quantity: string;
  unit: string;
  billed_amount_credits: string;
}

export interface TaskEnvelope {
  object: "task";
  task_id: string;
  status: string;
  capability: string;
  model: string;
  resolved_model: string | null;
  model_selection_reason: string | null;
  progress: { percent?: number; stage?: string; message?: string } | null;
  output: ({ type?: string; text?: string; artifacts?: Artifact[] } & Record<string, unknown>) | null;
  error: import("./api").ServiceErrorBody | null;
  usage: ({ lines?: UsageLine[]; credits?: string } & Record<string, unknown>) | null;
  billing: Record<string, string> | null;
  callback: { url: string; status: string; attempt_count: number; delivered_at: string | null; last_error: string | null } | null;
  created_at: string;
  completed_at: string | null;
  cancel_requested_at: string | null;
}

export interface Page<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: boolean | JsonSchema;
}

export interface ModelCard {
  id: string;
  live: boolean;
  description: string;
  constraints: Record<string, unknown>;
  prices: { meter: string; unit: string; per: string; price_credits: string; when?: Record<string, unknown> }[];
}

export interface CapabilitySummary {
  id: string;
  path: string;
  summary: string;
  shape: string;
  billing_mode: string;
  models: string[];
}

export interface CapabilityCard extends CapabilitySummary {
  input_schema: JsonSchema;
  example: Record<string, unknown>;
  model_cards: ModelCard[];
}

export interface Quote {
  resolved_model: string;
  model_selection_reason: string | null;
  billing_mode: string;
  price_credits: string;
  hold_credits: string;
  lines: { meter: string; quantity: string; unit: string; amount_credits: string }[];
  available_credits: string;
  sufficient_balance: boolean;
}
