import type { ProviderEndpoint } from "../../config.js";
import { retryAfterMs, vendorFetch, type VendorResponse } from "../http.js";
import { jsonAnswer } from "../json-answer.js";
import { parameterRefusal, ProviderFailure, type ProviderOutcome } from "../types.js";

// What every vendorF task resource shares (docs/providers/vendorF.md), image tasks and vision tasks alike: the
// `Key` credential, refusals as `{error_type, detail}` with an HTTP status, and one state vocabulary
// (queued, in_progress, completed, failed, canceled) with a progress figure and a hint for the next read.

// Creating or reading a task is bookkeeping at the vendor; the work happens between reads.
const CALL_TIMEOUT_MS = 30_000;
const DEFAULT_POLL_AFTER_MS = 2_000;

export interface VendorFTask {
  task_id?: string;
  state?: string;
  progress_percent?: number;
  poll_after_ms?: number;
  error?: { type?: string; detail?: string };
}

interface VendorError {
  error_type?: string;
  detail?: string;
}

export function callVendorF(endpoint: ProviderEndpoint, method: string, path: string, signal: AbortSignal, body?: unknown): Promise<VendorResponse> {
  return vendorFetch(
    `${endpoint.baseUrl}${path}`,
    {
      method,
      headers: { authorization: `Key ${endpoint.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs: CALL_TIMEOUT_MS,
    },
    signal,
  );
}

// The task a successful answer carries; any other answer throws its mapped failure.
export function taskOf<T extends VendorFTask>(response: VendorResponse, step: "create" | "read"): T {
  const body = jsonAnswer(response.text);
  const answer = (typeof body === "object" && body !== null ? body : {}) as T & VendorError;
  const succeeded = response.status >= 200 && response.status < 300;
  if (succeeded && answer !== body) {
    // A cut-off answer is treated like a 5xx: the vendor may answer properly next time.
    throw new ProviderFailure("model_request_failed", `vendor answered HTTP ${response.status} with a body that is not JSON`, true);
  }
  if (succeeded) return answer;
  const message = `${answer.error_type ?? `HTTP ${response.status}`}: ${answer.detail ?? "no detail"}`;
  if (response.status === 429) throw new ProviderFailure("model_rate_limited", `vendor rate limit: ${message}`, true, retryAfterMs(response.headers));
  if (response.status >= 500) throw new ProviderFailure("model_request_failed", `vendor error: ${message}`, true);
  if (response.status === 401 || response.status === 403 || (step === "create" && response.status === 404)) {
    throw new ProviderFailure("model_unavailable", `vendor does not serve this model to us: ${message}`, false);
  }
  if (answer.error_type === "content_policy_violation") throw new ProviderFailure("safety_rejected", `vendor content policy: ${answer.detail}`, false);
  if (response.status === 400 || response.status === 422) throw parameterRefusal(message);
  throw new ProviderFailure("model_request_failed", `vendor refused to ${step} the task: ${message}`, false);
}

// A task that has not completed: still open (followed by another read), or ended without a result (thrown).
export function unfinishedOutcome(task: VendorFTask): ProviderOutcome {
  switch (task.state) {
    case "queued":
    case "in_progress": {
      if (!task.task_id) throw new ProviderFailure("model_request_failed", "vendor answered a task without its task_id", false);
      const percent = Math.max(0, Math.min(99, Math.round(task.progress_percent ?? 0)));
      return {
        status: "pending",
        ref: task.task_id,
        pollAfterMs: task.poll_after_ms ?? DEFAULT_POLL_AFTER_MS,
        progress: { percent, message: `vendorF task ${task.state}, ${percent}%` },
      };
    }
    case "failed": {
      const detail = `${task.error?.type ?? "failed"}: ${task.error?.detail ?? "no detail"}`;
      if (task.error?.type === "content_moderated") throw new ProviderFailure("content_filtered", `vendor output moderation: ${task.error.detail}`, false);
      if (task.error?.type === "timeout") throw new ProviderFailure("model_timeout", `vendor task timed out: ${detail}`, false);
      throw new ProviderFailure("model_request_failed", `vendor task failed: ${detail}`, false);
    }
    case "canceled":
      throw new ProviderFailure("model_request_failed", "vendor canceled the task on its side", false);
    default:
      throw new ProviderFailure("model_request_failed", `vendor reported an undocumented task state ${JSON.stringify(task.state)}`, false);
  }
}
