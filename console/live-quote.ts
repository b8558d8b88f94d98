import { useEffect, useState } from "preact/hooks";
import { api, operationRoute } from "./api";
import type { Quote } from "./types";

// The price of the request as it stands, asked again (POST /v1/quotes) a moment after each change: the model auto
// would pick, the price and the hold, or the refusal the create would give. It only informs; the create is
// always allowed, and its own answer is what counts.

export type QuoteState = { state: "pricing" } | { state: "quoted"; quote: Quote } | { state: "refused"; error: unknown };

const SETTLE_MS = 300;

export function useLiveQuote(capability: string | null, body: unknown): QuoteState {
  const json = JSON.stringify(body);
  // Each answer with the body it is for: a price is shown only for the body as it stands, never for the one
  // before while the new one is asked about.
  const [answer, setAnswer] = useState<{ json: string; state: QuoteState } | null>(null);
  useEffect(() => {
    if (!capability) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api<Quote>(operationRoute("createQuote"), { body: { capability, ...(body as object) }, signal: abort.signal }).then(
        (quote) => setAnswer({ json, state: { state: "quoted", quote } }),
        (error: unknown) => {
          if (!abort.signal.aborted) setAnswer({ json, state: { state: "refused", error } });
        },
      );
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [capability, json]);
  return answer?.json === json ? answer.state : { state: "pricing" };
}
