import { useEffect, useMemo, useState } from "preact/hooks";
import { api, ApiError, fieldErrors } from "./api";
import { ErrorView } from "./error-view";
import { newIdempotencyKey } from "./idempotency-key";
import { isMediaInput } from "./schema";
import { SchemaForm, type FormContext } from "./schema-form";
import { TaskView } from "./task-view";
import type { CapabilityCard, CapabilitySummary, JsonSchema, ModelCard, Page, Quote, TaskEnvelope } from "./types";

// Try any capability: its form comes from the catalog card's input_schema (the JSON Schema the API validates
// with), the quote is asked for the body as it stands and shown before the create can be sent, and the create
// carries an Idempotency-Key that is reused when a create that got no answer (or a refusal) is sent again with the
// same body, so a retry never makes a second task; a new body or an answered create gets a new key.

const NO_ERRORS = new Map<string, string>();

// The example body's plain values (no media: its example URLs are placeholders), so a first try needs little typing.
function startingBody(card: CapabilityCard): Record<string, unknown> {
  const properties = card.input_schema.properties ?? {};
  return Object.fromEntries(
    Object.entries(card.example).filter(([name, value]) => {
      const schema: JsonSchema | undefined = properties[name];
      return schema !== undefined && !isMediaInput(schema) && ["string", "number", "boolean"].includes(typeof value);
    }),
  );
}

// What the models' catalog constraints allow for a field, offered as its choices: `resolutions` for `resolution`,
// `canvas_tiers` for `canvas.tier`, `supported_languages` for `language`. With `auto`, what any live model allows.
function constraintChoices(cards: ModelCard[]): Record<string, string[]> {
  const choices: Record<string, Set<string>> = {};
  for (const card of cards) {
    for (const [key, value] of Object.entries(card.constraints)) {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string" || typeof v === "number")) continue;
      const field = key.replace(/^supported_/, "").replace(/s$/, "");
      for (const v of value) (choices[field] ??= new Set()).add(String(v));
    }
  }
  return Object.fromEntries(Object.entries(choices).map(([field, values]) => [field, [...values]]));
}

function ModelDetails({ card }: { card: ModelCard }) {
  return (
    <div class="model-card">
      <p>{card.description}</p>
      <ul class="prices">
        {card.prices.map((price) => (
          <li>
            {price.price_credits} credits per {price.per} {price.unit} ({price.meter}){price.when ? ` when ${JSON.stringify(price.when)}` : ""}
          </li>
        ))}
      </ul>
      <details>
        <summary>Constraints of {card.id}</summary>
        <dl class="pairs">
          {Object.entries(card.constraints).map(([key, value]) => (
            <>
              <dt>{key}</dt>
              <dd class="mono">{JSON.stringify(value)}</dd>
            </>
          ))}
        </dl>
      </details>
    </div>
  );
}

function QuoteView({ quote }: { quote: Quote }) {
  return (
    <section class="quote" aria-label="Quote" role="status">
      <h3>Quote</h3>
      <p>
        Runs on <strong>{quote.resolved_model}</strong> · {quote.billing_mode === "prepaid" ? "price" : "estimate"}{" "}
        <strong data-quote="price">{quote.price_credits}</strong> credits · holds {quote.hold_credits} · available {quote.available_credits}
      </p>
      {quote.model_selection_reason && <p class="hint">Why this model: {quote.model_selection_reason}</p>}
      {!quote.sufficient_balance && <p class="error-text">Your balance does not cover the hold: the create would answer insufficient_balance.</p>}
      <ul>
        {quote.lines.map((line) => (
          <li>
            {line.meter}: {line.quantity} {line.unit} → {line.amount_credits} credits
          </li>
        ))}
      </ul>
    </section>
  );
}

export function TryPage({ initialCapability }: { initialCapability: string | undefined }) {
  const [capabilities, setCapabilities] = useState<CapabilitySummary[]>([]);
  const [selected, setSelected] = useState<string>(initialCapability ?? "");
  const [card, setCard] = useState<CapabilityCard | null>(null);
  const [body, setBody] = useState<unknown>({});
  const [errors, setErrors] = useState<Map<string, string>>(NO_ERRORS);
  const [failure, setFailure] = useState<unknown>(null);
  const [quote, setQuote] = useState<{ json: string; quote: Quote } | null>(null);
  const [submission, setSubmission] = useState<{ json: string; key: string } | null>(null);
  const [task, setTask] = useState<TaskEnvelope | null>(null);
  const [busy, setBusy] = useState(false);
  const [suggestions, setSuggestions] = useState<Record<string, string[]>>({});

  useEffect(() => {
    api<{ data: CapabilitySummary[] }>("GET", "/v1/catalog/capabilities").then((list) => setCapabilities(list.data), setFailure);
    api<Page<{ voice_id: string }>>("GET", "/v1/voices?limit=100")
      .then((voices) => setSuggestions((s) => ({ ...s, voice: voices.data.map((v) => v.voice_id) })))
      .catch(() => undefined);
    api<Page<{ id: string; status: string }>>("GET", "/v1/callback-signing-keys?limit=100")
      .then((keys) => setSuggestions((s) => ({ ...s, callback_signing_key_id: keys.data.filter((k) => k.status === "active").map((k) => k.id) })))
      .catch(() => undefined);
  }, []);

  useEffect(() => {
    setCard(null);
    setQuote(null);
    setErrors(NO_ERRORS);
    setFailure(null);
    setTask(null);
    if (!selected) return;
    if (location.hash !== `#/try/${selected}`) history.replaceState(null, "", `#/try/${selected}`);
    api<CapabilityCard>("GET", `/v1/catalog/capabilities/${encodeURIComponent(selected)}`).then((c) => {
      setCard(c);
      setBody(startingBody(c));
    }, setFailure);
  }, [selected]);

  const json = JSON.stringify(body);
  const quoted = quote !== null && quote.json === json;

  const refuse = (error: unknown) => {
    setFailure(error);
    setErrors(error instanceof ApiError ? fieldErrors(error.body) : NO_ERRORS);
  };

  const askQuote = async () => {
    if (!card) return;
    setBusy(true);
    setFailure(null);
    setErrors(NO_ERRORS);
    try {
      const answer = await api<Quote>("POST", "/v1/quotes", { body: { capability: card.id, ...(body as object) } });
      setQuote({ json, quote: answer });
    } catch (error) {
      setQuote(null);
      refuse(error);
    } finally {
      setBusy(false);
    }
  };

  const create = async () => {
    if (!card) return;
    const key = submission?.json === json ? submission.key : newIdempotencyKey();
    setSubmission({ json, key });
    setBusy(true);
    setFailure(null);
    setErrors(NO_ERRORS);
    try {
      setTask(await api<TaskEnvelope>("POST", card.path, { body, idempotencyKey: key }));
      // Answered: another click is another task. Only a create whose answer was lost or refused keeps its key.
      setSubmission(null);
    } catch (error) {
      refuse(error);
    } finally {
      setBusy(false);
    }
  };

  const modelCards = useMemo(() => new Map((card?.model_cards ?? []).map((m) => [m.id, m])), [card]);
  const chosenModel = typeof (body as Record<string, unknown>).model === "string" ? ((body as Record<string, unknown>).model as string) : "auto";
  const chosenCards = chosenModel === "auto" ? (card?.model_cards ?? []).filter((m) => m.live) : [modelCards.get(chosenModel)].filter((m) => m !== undefined);
  const ctx: FormContext = {
    errors,
    suggestions: { ...constraintChoices(chosenCards), ...suggestions },
    custom:
      card && card.models.length > 0
        ? {
            model: ({ id, describedBy, invalid }) => (
              <>
                <select
                  id={id}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  value={chosenModel}
                  onChange={(e) => setBody({ ...(body as object), model: (e.currentTarget as HTMLSelectElement).value })}
                >
                  {card.models.map((m) => (
                    <option value={m}>
                      {m}
                      {modelCards.get(m)?.live === false ? " (not live here)" : ""}
                    </option>
                  ))}
                </select>
                {modelCards.get(chosenModel) && <ModelDetails card={modelCards.get(chosenModel)!} />}
              </>
            ),
          }
        : {},
  };

  return (
    <section aria-labelledby="try-title">
      <h2 id="try-title">Try a capability</h2>
      <div class="field">
        <label for="capability">Capability</label>
        <select id="capability" value={selected} onChange={(e) => setSelected((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">Choose a capability…</option>
          {capabilities.map((c) => (
            <option value={c.id}>
              {c.id} — {c.summary}
            </option>
          ))}
        </select>
      </div>
      {card && (
        <form
          noValidate
          aria-label={`${card.id} request`}
          onSubmit={(e) => {
            e.preventDefault();
            void (quoted ? create() : askQuote());
          }}
        >
          <p class="hint">
            <code>POST {card.path}</code> · {card.billing_mode} · {card.summary}
          </p>
          <SchemaForm schema={card.input_schema} body={body} onBody={(next) => setBody(next ?? {})} ctx={ctx} />
          {quote && quoted && <QuoteView quote={quote.quote} />}
          <div class="actions">
            <button type="button" onClick={askQuote} disabled={busy}>
              Get quote
            </button>
            <button type="button" onClick={create} disabled={busy || !quoted}>
              Create task
            </button>
            {!quoted && <span class="hint">Get a quote for these values first: it shows the price and the model.</span>}
          </div>
        </form>
      )}
      <ErrorView error={failure} />
      {task && <TaskView initial={task} />}
    </section>
  );
}
