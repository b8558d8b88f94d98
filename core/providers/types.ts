import type { VendorFamily } from "../config.js";
import type { ErrorCode } from "../errors/index.js";

export interface ProviderRequest {
  taskId: string;
  capability: string;
  model: string;
  input: Record<string, unknown>;
}

export interface ProviderOutput {
  url: string;
  kind: "audio" | "image" | "video";
  // The format the vendor says it produced; the stored bytes are probed and are authoritative.
  format?: string;
  sampleRate?: number;
}

export type ProviderOutcome =
  | { status: "done"; outputs: ProviderOutput[] }
  | { status: "pending"; ref: string; pollAfterMs: number; progress?: { percent: number; message?: string } };

export interface ProviderAdapter {
  family: VendorFamily;
  // Whether a running task of this family can be stopped at the vendor; decides cancel's 202 versus 409.
  supportsCancel: boolean;
  submit(request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome>;
}

// A vendor failure already mapped to a public code. `transient` failures are retried inside the deadline;
// `retryAfterMs` carries the vendor's hint (429 Retry-After). The vendor's wording is kept in `message`.
export class ProviderFailure extends Error {
  constructor(
    readonly code: Extract<
      ErrorCode,
      | "model_request_failed"
      | "model_timeout"
      | "model_rate_limited"
      | "model_unavailable"
      | "safety_rejected"
      | "content_filtered"
      | "model_output_invalid"
    >,
    message: string,
    readonly transient: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "ProviderFailure";
  }
}
