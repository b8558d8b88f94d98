import { fieldErrors, ServiceError } from "./api";
import type { QuoteState } from "./live-quote";
import { credits } from "./prices";

// The foot of the request form, kept in sight as the form scrolls: the price as the form now stands (or the
// required fields still empty, or what the create would refuse, and where), and the run button, which is never
// held back by the quote.

function refusalText(error: unknown): string {
  if (!(error instanceof ServiceError)) return error instanceof Error ? error.message : String(error);
  const [first] = fieldErrors(error);
  if (error.code === "invalid_request" && first) return `To run: ${first[0].slice(1).replace(/\//g, ".") || "body"} ${first[1]}`;
  return `${error.code}: ${error.message}`;
}

// Cmd on a Mac, Ctrl elsewhere (try-page.tsx takes both).
const SHORTCUT = /Mac|iPhone|iPad/.test(navigator.userAgent) ? "⌘ Enter" : "Ctrl+Enter";

export function RunBar({ quote, missing, busy, label }: { quote: QuoteState; missing: string[]; busy: boolean; label: string }) {
  return (
    <div class="run-bar">
      <p class="price" role="status" aria-live="polite">
        {missing.length > 0 && <span class="hint">To run, add: {missing.map((name) => name.replace(/_/g, " ")).join(", ")}</span>}
        {missing.length === 0 && quote.state === "pricing" && <span class="hint">Pricing…</span>}
        {missing.length === 0 && quote.state === "quoted" && (
          <>
            <strong data-quote="price" data-credits={quote.quote.price_credits}>
              {credits(quote.quote.price_credits)}
            </strong> credits{quote.quote.billing_mode === "postpaid" ? " (estimate)" : ""} on{" "}
            <span data-quote="model">{quote.quote.resolved_model}</span>
            {!quote.quote.sufficient_balance && <span class="error-text"> · more than your {credits(quote.quote.available_credits)} available</span>}
          </>
        )}
        {missing.length === 0 && quote.state === "refused" && (
          <span class="hint" data-quote="refusal">
            {refusalText(quote.error)}
          </span>
        )}
      </p>
      <span class="run-action">
        <button type="submit" class="run" disabled={busy} aria-keyshortcuts="Control+Enter Meta+Enter">
          {busy ? "Sending…" : label}
        </button>
        <kbd class="shortcut" aria-hidden="true">
          or {SHORTCUT}
        </kbd>
      </span>
    </div>
  );
}
