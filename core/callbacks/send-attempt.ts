import type { Config } from "../config.js";
import type { IdGenerator } from "../ids.js";
import { guardedRequest, OutboundError, urlRefusal } from "../net/index.js";
import { toEnvelope } from "../tasks/envelope.js";
import { envelopeContext, type EnvelopeRuntime } from "../tasks/read.js";
import type { TaskRow } from "../tasks/repository.js";
import { signatureHeader } from "./signature.js";
import type { CallbackState } from "./state.js";

// The body is the event, its `task` the envelope as it stands at this attempt (fresh artifact URLs).
// A receiver's answer matters only by its status; the first bytes of a refusal go into last_error.
const RESPONSE_BYTES_KEPT = 4096;
const ERROR_SNIPPET_CHARS = 200;

// The parts of the runtime an attempt uses: what the task's envelope is written with (its clock also dates the
// signature), the delivery's id, and the outbound settings.
export interface AttemptRuntime extends EnvelopeRuntime {
  ids: IdGenerator;
  config: Pick<Config, "publicBaseUrl" | "outboundAllowLoopbackHttp" | "callbackTimeoutMs">;
}

export interface AttemptInput {
  task: TaskRow;
  state: CallbackState;
  attempt: number;
  signing: { keyId: string; secrets: string[] } | null;
}

// Why an attempt failed; `permanent` when trying again on the schedule cannot help (the outbound policy refused
// the destination: only a change to DNS or the URL would, and a redelivery retries it then).
export interface AttemptFailure {
  reason: string;
  permanent: boolean;
}

const retryable = (reason: string): AttemptFailure => ({ reason, permanent: false });

// The policy's refusal in terms of its rule. The guard's own message says what the host resolved to, which is
// the service's view of DNS (internal names included) and not the tenant's business: it is never passed on.
function policyRefusal(url: string, allowLoopbackHttp: boolean): AttemptFailure {
  const rule =
    urlRefusal(url, { allowLoopbackHttp }) ??
    (new URL(url).protocol === "http:" ? "must be an HTTPS URL (plain http reaches loopback addresses only)" : "must name a host whose every address is public");
  return { reason: `delivery refused by the outbound policy: the callback URL ${rule}; not retried`, permanent: true };
}

// One POST of a task's event. Returns null when a 2xx arrived within the time limit, otherwise why not.
export async function sendAttempt(core: AttemptRuntime, input: AttemptInput, signal: AbortSignal): Promise<AttemptFailure | null> {
  const { task, state, attempt, signing } = input;
  const body = JSON.stringify({
    event_id: state.event_id,
    event_type: state.event_type,
    event_time: state.event_time,
    task: toEnvelope(task, envelopeContext(core)),
  });
  // Signed afresh at every attempt, so a receiver enforcing the 300-second tolerance accepts the 12-hour retry.
  const timestamp = Math.floor(core.clock().getTime() / 1000);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "media-task-service-callbacks/0.1",
    "x-event-id": state.event_id,
    "x-delivery-id": core.ids.callbackDelivery(),
    "x-delivery-attempt": String(attempt),
    "x-task-id": task.id,
    "x-event-type": state.event_type,
    "x-timestamp": String(timestamp),
  };
  if (signing) {
    headers["x-signature-key-id"] = signing.keyId;
    headers["x-signature"] = signatureHeader(signing.secrets, timestamp, body);
  }
  try {
    const response = await guardedRequest(
      { allowLoopbackHttp: core.config.outboundAllowLoopbackHttp },
      {
        method: "POST",
        url: task.callbackUrl as string,
        headers,
        body,
        timeoutMs: core.config.callbackTimeoutMs,
        maxResponseBytes: RESPONSE_BYTES_KEPT,
        oversizedBody: "truncate",
        maxRedirects: 0,
        signal,
      },
    );
    if (response.status >= 200 && response.status < 300) return null;
    if (response.status >= 300 && response.status < 400) {
      return retryable(`HTTP ${response.status} from the receiver; redirects are not followed (Location: ${response.headers.location ?? "none"})`);
    }
    const snippet = response.body.toString("utf8").slice(0, ERROR_SNIPPET_CHARS).trim();
    return retryable(`HTTP ${response.status} from the receiver${snippet ? `: ${snippet}` : ""}`);
  } catch (error) {
    // Abandoned (the worker is stopping): no outcome to record; the job runs again and makes this attempt anew.
    if (!(error instanceof OutboundError) || error.failure === "aborted") throw error;
    if (error.failure === "timeout") return retryable(`no 2xx within ${core.config.callbackTimeoutMs} ms`);
    if (error.failure === "refused") return policyRefusal(task.callbackUrl as string, core.config.outboundAllowLoopbackHttp);
    return retryable(error.message);
  }
}
