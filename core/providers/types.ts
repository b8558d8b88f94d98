import type { VendorFamily } from "../config.js";
import type { UsageCounter } from "../capabilities/types.js";
import type { ErrorCode } from "../errors/index.js";
import type { HandedFile } from "../media/spool.js";

// A task's request as the worker builds it from the task row; an adapter's handlers see it typed for their
// capability (ProviderRequestOf, served-capabilities.ts).
export interface ProviderRequest {
  taskId: string;
  capability: string;
  model: string;
  input: Record<string, unknown>;
}

interface OutputFacts {
  kind: "audio" | "image" | "video";
  // The format the vendor says it produced; the stored bytes are probed and are authoritative.
  format?: string;
  sampleRate?: number;
  // What the artifact is within the result when there are several kinds (e.g. `last_frame`, `clip`).
  role?: string;
}

// An output to download (or answered inline, as a data URI).
interface OutputAtUrl extends OutputFacts {
  url: string;
  // Headers the download needs, for a vendor whose output URLs take its key (they are not sent on past a
  // redirect to another origin).
  headers?: Record<string, string>;
  file?: never;
}

// A local file the adapter made itself (joined speech): the worker owns it from here, stores it as it would a
// download and removes it, stored or not.
interface OutputInFile extends OutputFacts {
  file: HandedFile;
  url?: never;
  headers?: never;
}

export type ProviderOutput = OutputAtUrl | OutputInFile;

// A finished vendor job: media to download, and/or text or data answered inline, and the quantities the vendor
// measured that the stored bytes cannot tell (tokens, input seconds).
export interface ProviderResult {
  outputs: ProviderOutput[];
  text?: string;
  data?: Record<string, unknown>;
  measured?: Partial<Record<UsageCounter, number>>;
}

export type ProviderOutcome =
  | ({ status: "done" } & ProviderResult)
  | { status: "pending"; ref: string; pollAfterMs: number; progress?: { percent: number; message?: string } };

export interface ProviderAdapter {
  family: VendorFamily;
  // Whether a running task of this family can be stopped at the vendor; decides cancel's 202 versus 409.
  supportsCancel: boolean;
  submit(request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome>;
  // Families that answer "pending" are followed with poll; those that support cancel implement it.
  poll?(ref: string, request: ProviderRequest, signal: AbortSignal): Promise<ProviderOutcome>;
  cancel?(ref: string, request: ProviderRequest, signal: AbortSignal): Promise<void>;
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
      | "unsupported_option"
    >,
    message: string,
    readonly transient: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "ProviderFailure";
  }
}

// The vendor refused the request's parameters: a limit the catalog does not know, since admission and the worker
// check every published one first. Not retryable (the same request is refused again); the vendor's wording is kept,
// and the task's failure is logged and counted as a catalog gap (core/tasks/advance.ts) so it gets found.
export function parameterRefusal(wording: string): ProviderFailure {
  return new ProviderFailure("unsupported_option", `vendor refused the request's parameters: ${wording}`, false);
}
