import { ServiceError } from "../errors/index.js";
import type { OutboundFailure } from "../net/index.js";

// Why a media input's download failed (`details.reason` of media_fetch_failed), and whether the worker tries it
// again. Only what a later attempt can change is tried again: a connection that failed or broke off (including
// name resolution, and our own side giving up, "aborted"), and a source answering 5xx. A source that stalls, sends
// too slowly, runs out the whole time or answers 4xx would do the same again while holding a worker slot each
// time, so the task fails at once.
export type MediaFetchReason = Exclude<OutboundFailure, "refused" | "too_large"> | "http_status";

export class MediaFetchFailure extends ServiceError {
  readonly transient: boolean;

  constructor(param: string, message: string, reason: MediaFetchReason, transient: boolean, details: Record<string, unknown> = {}) {
    super("media_fetch_failed", message, { param, details: { reason, ...details } });
    this.transient = transient;
  }
}

export function httpStatusFailure(param: string, status: number): MediaFetchFailure {
  return new MediaFetchFailure(param, `Fetching the media at ${param} answered HTTP ${status}.`, "http_status", status >= 500, { status });
}

const TRANSIENT: ReadonlySet<MediaFetchReason> = new Set(["network", "dns_failed", "aborted"]);

// An exchange that failed (the guard's refusals and size limits are answered by their own codes, not here).
export function exchangeFailure(param: string, failure: Exclude<OutboundFailure, "refused" | "too_large">, message: string): MediaFetchFailure {
  return new MediaFetchFailure(param, `Could not fetch the media at ${param}: ${message}.`, failure, TRANSIENT.has(failure));
}
