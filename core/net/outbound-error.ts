// Why an outbound request did not produce a response. "refused" is the guard saying no (scheme, address,
// credentials in the URL); "aborted" is the caller's own signal (say, a worker shutting down); "stalled" and
// "too_slow" are a source slower than the pace the caller asked for (transfer-pace.ts); the others are the
// exchange itself failing.
export type OutboundFailure =
  | "refused"
  | "aborted"
  | "dns_failed"
  | "timeout"
  | "stalled"
  | "too_slow"
  | "too_large"
  | "too_many_redirects"
  | "network";

export class OutboundError extends Error {
  readonly failure: OutboundFailure;

  constructor(failure: OutboundFailure, message: string) {
    super(message);
    this.name = "OutboundError";
    this.failure = failure;
  }
}
