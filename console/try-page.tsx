import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, createRoute, fieldErrors, operationRoute, ServiceError } from "./api";
import { capabilityArea, capabilityCard, capabilityList, capabilityTitle } from "./catalog";
import { ErrorView } from "./error-view";
import { Examples } from "./examples-view";
import { takeHandOff } from "./hand-off";
import { newIdempotencyKey } from "./idempotency-key";
import { useLiveQuote } from "./live-quote";
import { modelOffers } from "./model-offers";
import { ModelPicker } from "./model-picker";
import { Prose } from "./prose";
import { RequestCodeView } from "./request-code-view";
import { RunBar } from "./run-bar";
import { isMediaInput, type JsonSchema } from "./schema";
import { SchemaForm, type FormContext } from "./schema-form";
import { Comparison, ModelChooser, runOnModels, type Entry } from "./side-by-side";
import { TaskView } from "./task-view";
import type { CapabilityCard, CapabilitySummary, SigningKeyList, Task, Voice } from "./types";
import { loadVoices } from "./voice-list";
import { VoicePicker } from "./voice-picker";

// Try any capability, as a playground: the request's inputs beside its result (one above the other on a phone).
// The form comes from the catalog card's input_schema (the JSON Schema the API validates with) and the models'
// cards; the price is asked again as the form changes and never holds the run back. The create carries an
// Idempotency-Key that is reused when a create that got no answer (or a refusal) is sent again with the same body,
// so a retry never makes a second task; a new body or an answered create gets a new key.

const NO_ERRORS = new Map<string, string>();

// What the person says of their own and is never taken from an example: the name of a thing they make (a cloned
// voice's display_name). A field that must be one exact value (consent_attested: true) is an attestation, theirs too.
const PERSONS_OWN = new Set(["display_name"]);

// The example body's plain values (no media: its example URLs are placeholders), so a first try needs little typing;
// never a consent or a name, which are the person's to give.
function startingBody(card: CapabilityCard): Record<string, unknown> {
  const properties = (card.input_schema as JsonSchema).properties ?? {};
  return Object.fromEntries(
    Object.entries(card.example).filter(([name, value]) => {
      const schema: JsonSchema | undefined = properties[name];
      if (schema === undefined || schema.const !== undefined || PERSONS_OWN.has(name)) return false;
      return !isMediaInput(schema) && ["string", "number", "boolean"].includes(typeof value);
    }),
  );
}

// The request's values over the schema's defaults: what a card's table keyed by another field is read with.
function withDefaults(schema: JsonSchema, body: Record<string, unknown>): Record<string, unknown> {
  const defaults = Object.entries(schema.properties ?? {}).filter(([, s]) => s.default !== undefined);
  return { ...Object.fromEntries(defaults.map(([name, s]) => [name, s.default])), ...body };
}

function CapabilityPicker({ capabilities, selected, onSelect }: { capabilities: CapabilitySummary[]; selected: string; onSelect(id: string): void }) {
  const areas = [...new Set(capabilities.map(capabilityArea))];
  return (
    <div class="field capability-field">
      <label for="capability">Capability</label>
      <select id="capability" value={selected} onChange={(e) => onSelect((e.currentTarget as HTMLSelectElement).value)}>
        <option value="">Choose a capability…</option>
        {areas.map((area) => (
          <optgroup label={area}>
            {capabilities
              .filter((c) => capabilityArea(c) === area)
              .map((c) => (
                <option value={c.id}>{capabilityTitle(c)}</option>
              ))}
          </optgroup>
        ))}
      </select>
    </div>
  );
}

export function TryPage({ initialCapability }: { initialCapability: string | undefined }) {
  const [capabilities, setCapabilities] = useState<CapabilitySummary[]>([]);
  const [selected, setSelected] = useState<string>(initialCapability ?? "");
  const [card, setCard] = useState<CapabilityCard | null>(null);
  const [body, setBody] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Map<string, string>>(NO_ERRORS);
  const [failure, setFailure] = useState<unknown>(null);
  const [submission, setSubmission] = useState<{ json: string; key: string } | null>(null);
  const [task, setTask] = useState<Task | null>(null);
  const [busy, setBusy] = useState(false);
  // Side by side: the models chosen, and the tasks they run (instead of `task`).
  const [compareModels, setCompareModels] = useState<string[]>([]);
  const [comparison, setComparison] = useState<Entry[] | null>(null);
  const [voices, setVoices] = useState<Voice[]>([]);
  const [signingKeys, setSigningKeys] = useState<string[]>([]);
  const result = useRef<HTMLElement>(null);

  useEffect(() => {
    capabilityList().then(setCapabilities, setFailure);
    loadVoices().then(setVoices, () => undefined);
    api<SigningKeyList>(operationRoute("listCallbackSigningKeys"), { query: { limit: 100 } }).then(
      (keys) => setSigningKeys(keys.data.filter((k) => k.status === "active").map((k) => k.id)),
      () => undefined,
    );
  }, []);

  useEffect(() => {
    setCard(null);
    setErrors(NO_ERRORS);
    setFailure(null);
    setTask(null);
    setComparison(null);
    setCompareModels([]);
    if (!selected) return;
    if (location.hash !== `#/try/${selected}`) history.replaceState(null, "", `#/try/${selected}`);
    capabilityCard(selected).then((c) => {
      setCard(c);
      setBody(takeHandOff(c.id) ?? startingBody(c));
    }, setFailure);
  }, [selected]);

  const schema = (card?.input_schema ?? {}) as JsonSchema;
  // Required fields still empty: said as such, and not priced (the quote would only refuse).
  const missing = (schema.required ?? []).filter((name) => body[name] === undefined);
  const quote = useLiveQuote(card && missing.length === 0 ? card.id : null, body);
  const json = JSON.stringify(body);
  const modelCards = useMemo(() => new Map((card?.model_cards ?? []).map((m) => [m.id, m])), [card]);
  const chosenModel = typeof body.model === "string" ? body.model : "auto";
  const concrete = modelCards.get(chosenModel);
  const inPlay = concrete ? [concrete] : (card?.model_cards ?? []).filter((m) => m.live);

  const create = async () => {
    if (!card) return;
    const key = submission?.json === json ? submission.key : newIdempotencyKey();
    setSubmission({ json, key });
    setBusy(true);
    setFailure(null);
    setErrors(NO_ERRORS);
    try {
      setTask(await api<Task>(createRoute(card.path), { body, idempotencyKey: key }));
      setComparison(null);
      // Answered: another run is another task. Only a create whose answer was lost or refused keeps its key.
      setSubmission(null);
      // On a phone the result is below the form: bring it into view.
      if (matchMedia("(max-width: 64rem)").matches) requestAnimationFrame(() => result.current?.scrollIntoView({ block: "start" }));
    } catch (error) {
      setFailure(error);
      setErrors(error instanceof ServiceError ? fieldErrors(error) : NO_ERRORS);
    } finally {
      setBusy(false);
    }
  };

  const compare = async () => {
    if (!card) return;
    setBusy(true);
    setFailure(null);
    setErrors(NO_ERRORS);
    setTask(null);
    setComparison(await runOnModels(card, body, compareModels));
    setBusy(false);
    if (matchMedia("(max-width: 64rem)").matches) requestAnimationFrame(() => result.current?.scrollIntoView({ block: "start" }));
  };
  // The one kept: its model into the form, its task the result.
  const keep = (kept: Task) => {
    setBody({ ...body, model: kept.resolved_model });
    setComparison(null);
    setTask(kept);
  };
  const comparable = (card?.model_cards ?? []).filter((m) => m.live && m.lifecycle !== "retired");

  const offers = modelOffers(inPlay, card?.id ?? "", withDefaults(schema, body));
  // A signing key is chosen from the active ones, not typed.
  if (signingKeys.length > 0) offers.set("callback_signing_key_id", { values: signingKeys });
  const ctx: FormContext = {
    errors,
    offers,
    model: concrete ? concrete.id : null,
    custom: {
      ...(card && card.models.length > 0 && schema.properties?.model
        ? {
            model: (control) => (
              <ModelPicker {...control} models={card.models} cards={modelCards} value={chosenModel} onChange={(model) => setBody({ ...body, model })} />
            ),
          }
        : {}),
      ...(schema.properties?.voice
        ? { voice: (control) => <VoicePicker {...control} voices={voices} value={body.voice} onChange={(voice) => setBody({ ...body, voice })} /> }
        : {}),
    },
  };

  return (
    <section class="try" aria-labelledby="try-title">
      <div class="try-head">
        <h2 id="try-title">Try</h2>
        <CapabilityPicker capabilities={capabilities} selected={selected} onSelect={setSelected} />
        {card && (
          <p class="hint capability-summary">
            <Prose text={card.summary} />
          </p>
        )}
      </div>
      <ErrorView error={card ? null : failure} />
      {card && (
        <div class="playground">
          <form
            class="inputs"
            noValidate
            aria-label={`${card.id} request`}
            onSubmit={(e) => {
              e.preventDefault();
              void create();
            }}
            // Ctrl+Enter (Cmd+Enter on a Mac) runs from any field, as in the playgrounds people know.
            onKeyDown={(e) => {
              if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey) || busy) return;
              e.preventDefault();
              (e.currentTarget as HTMLFormElement).requestSubmit();
            }}
          >
            <SchemaForm schema={schema} body={body} onBody={(next) => setBody((next ?? {}) as Record<string, unknown>)} ctx={ctx} />
            <ErrorView error={failure} />
            {comparable.length > 1 && <ModelChooser models={comparable} chosen={compareModels} onChosen={setCompareModels} onRun={() => void compare()} busy={busy} />}
            <RunBar quote={quote} missing={missing} busy={busy} label={`Run ${capabilityTitle(card).toLowerCase()}`} />
          </form>
          <section class="output" aria-label="Result" ref={result} tabIndex={-1}>
            {task ? (
              <TaskView key={task.task_id} initial={task} onRunAgain={setTask} />
            ) : comparison ? (
              <Comparison entries={comparison} onKeep={keep} />
            ) : (
              <div class="empty-result">
                <p>The result appears here: images at their size, a player for video and audio, text as text.</p>
                <p class="hint">
                  <code>POST {card.path}</code> · {card.billing_mode === "prepaid" ? "paid when it is created, refunded if it fails" : "paid when it succeeds"}
                </p>
                <Examples capability={card.id} onLoad={setBody} />
              </div>
            )}
            <RequestCodeView card={card} body={body} />
          </section>
        </div>
      )}
    </section>
  );
}
