import type { ComponentChildren } from "preact";
import { useLayoutEffect, useState } from "preact/hooks";
import { ChoiceControl } from "./choice-control";
import { MediaInput } from "./media-input";
import type { FieldOffer, Offered, Offers } from "./model-offers";
import { boundsText, fieldId, fieldKind, humanName, isLead, pointerOf, setAt, type JsonSchema } from "./schema";

// A form generated from a capability's JSON Schema, laid out as a playground: what the request asks for in words
// and the media it works on first; then the choices (model, voice, and every field whose values the schema or the
// models' cards enumerate, offered rather than typed); then everything else, folded. The request body is built as
// the fields are edited; an emptied field is left out, so the service applies its default. The browser's own
// validation is off: the service checks the body and its refusals come back to the field they point at
// (`errors`, by JSON Pointer).

type Path = (string | number)[];

export interface FieldControlProps {
  id: string;
  labelId: string;
  describedBy: string;
  invalid: boolean;
}

export interface FormContext {
  errors: Map<string, string>;
  // What the models in play allow, by field path joined with "_" (model-offers.ts).
  offers: Offers;
  // The model the offers are of, for saying which model does not take a field; null under `auto`.
  model: string | null;
  // Controls of their own for top-level fields (the model and voice pickers, the signing keys).
  custom: Record<string, (props: FieldControlProps) => ComponentChildren>;
}

interface FieldProps {
  name: string;
  schema: JsonSchema;
  path: Path;
  required: boolean;
  body: unknown;
  onBody(body: unknown): void;
  ctx: FormContext;
}

// Fields every create takes: always folded.
const COMMON = new Set(["metadata", "callback_url", "callback_signing_key_id", "model_options"]);

function valueAt(body: unknown, path: Path): unknown {
  let current = body;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string | number, unknown>)[part];
  }
  return current;
}

// A leaf shows the errors at its pointer and below it (a media input's /images/0/url); a group only its own.
function errorFor(ctx: FormContext, path: Path, leaf: boolean): string | undefined {
  const pointer = pointerOf(path);
  for (const [param, message] of ctx.errors) {
    if (param === pointer || (leaf && param.startsWith(`${pointer}/`))) return message;
  }
  return undefined;
}

const offerFor = (ctx: FormContext, path: Path): FieldOffer | undefined => ctx.offers.get(path.filter((p) => typeof p === "string").join("_"));

// The values a field offers: the models' where their cards list them (with `auto` where the schema allows it), else
// the schema's enum, else yes/no for a boolean.
function choicesOf(name: string, schema: JsonSchema, offer: FieldOffer | undefined): Offered[] | null {
  const kind = fieldKind(name, schema);
  if (offer?.values && offer.values.length > 0) {
    const auto = kind.kind === "mixed" && kind.alternatives.includes("auto") ? ["auto"] : [];
    return [...offer.values, ...auto];
  }
  if (kind.kind === "enum") return kind.values.filter((v): v is Offered => ["string", "number", "boolean"].includes(typeof v));
  if (kind.kind === "boolean") return [true, false];
  return null;
}

// Whether a field is one of the form's visible choices: it is enumerated (not merely yes or no), or it is an object
// whose fields are (a canvas's tier and aspect).
function isChoice(name: string, schema: JsonSchema, path: Path, ctx: FormContext): boolean {
  const kind = fieldKind(name, schema);
  if (kind.kind === "object") return Object.entries(kind.properties).some(([child, s]) => isChoice(child, s, [...path, child], ctx));
  if (kind.kind === "boolean") return false;
  return choicesOf(name, schema, offerFor(ctx, path)) !== null;
}

function unsetLabel(schema: JsonSchema, offer: FieldOffer | undefined, required: boolean): string | null {
  if (required) return null;
  if (offer?.modelDefault !== undefined) return `Default (${String(offer.modelDefault)})`;
  if (schema.default !== undefined) return `Default (${String(schema.default)})`;
  return "Default";
}

function JsonField({ id, value, onChange, describedBy, invalid }: { id: string; value: unknown; onChange(v: unknown): void; describedBy: string; invalid: boolean }) {
  const [text, setText] = useState(value === undefined ? "" : JSON.stringify(value, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <>
      <textarea
        id={id}
        rows={3}
        class="mono"
        value={text}
        placeholder="JSON"
        aria-describedby={describedBy}
        aria-invalid={invalid || problem !== null}
        onInput={(event) => {
          const next = (event.currentTarget as HTMLTextAreaElement).value;
          setText(next);
          if (next.trim() === "") {
            setProblem(null);
            onChange(undefined);
            return;
          }
          try {
            onChange(JSON.parse(next));
            setProblem(null);
          } catch {
            setProblem("not valid JSON yet");
          }
        }}
      />
      {problem && <p class="hint">{problem}</p>}
    </>
  );
}

// A value set inside an object also sets the object's required constants (a canvas's `type: "preset"`), which
// have nothing to choose and are not shown.
function withConstants(body: unknown, path: Path, parent: JsonSchema | undefined): unknown {
  if (!parent || path.length === 0) return body;
  const objectPath = path.slice(0, -1);
  const object = valueAt(body, objectPath);
  if (!object || typeof object !== "object") return body;
  let next = body;
  for (const name of parent.required ?? []) {
    const constant = parent.properties?.[name]?.const;
    if (constant !== undefined && (object as Record<string, unknown>)[name] === undefined) next = setAt(next, [...objectPath, name], constant);
  }
  return next;
}

function Control(props: FieldProps & FieldControlProps & { parent?: JsonSchema }) {
  const { name, schema, path, body, onBody, ctx, id, describedBy, invalid } = props;
  const value = valueAt(body, path);
  const set = (next: unknown) => onBody(next === undefined ? setAt(body, path, undefined) : withConstants(setAt(body, path, next), path, props.parent));
  const kind = fieldKind(name, schema);
  const offer = offerFor(ctx, path);
  const disabled = offer?.unsupported === true && value === undefined;
  const common = { id, "aria-describedby": describedBy, "aria-invalid": invalid, disabled };
  const choices = choicesOf(name, schema, offer);
  if (kind.kind === "media") return <MediaInput id={id} name={name} value={value} onChange={set} describedBy={describedBy} invalid={invalid} />;
  if (kind.kind === "const") {
    return <input {...common} type="checkbox" checked={value === kind.value} onChange={(e) => set((e.currentTarget as HTMLInputElement).checked ? kind.value : undefined)} />;
  }
  if (choices) {
    return (
      <ChoiceControl
        id={id}
        labelId={props.labelId}
        values={choices}
        value={value}
        onChange={set}
        unsetLabel={unsetLabel(schema, offer, props.required)}
        describedBy={describedBy}
        invalid={invalid}
        disabled={disabled}
      />
    );
  }
  switch (kind.kind) {
    case "number":
    case "mixed": {
      const placeholder = offer?.modelDefault !== undefined ? String(offer.modelDefault) : schema.default !== undefined ? String(schema.default) : undefined;
      const shown = value === undefined ? "" : String(value);
      const onInput = (e: Event) => {
        const raw = (e.currentTarget as HTMLInputElement).value.trim();
        set(raw === "" ? undefined : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw);
      };
      if (kind.kind === "mixed") return <input {...common} type="text" placeholder={placeholder} value={shown} onInput={onInput} />;
      const max = offer?.max ?? (schema.maximum !== undefined && schema.maximum < 2 ** 31 ? schema.maximum : undefined);
      return (
        <input
          {...common}
          type="number"
          step={kind.integer ? undefined : "any"}
          min={offer?.min ?? schema.minimum}
          max={max}
          placeholder={placeholder}
          value={shown}
          onInput={onInput}
        />
      );
    }
    case "text": {
      const shown = value === undefined ? "" : String(value);
      const onInput = (e: Event) => set((e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value || undefined);
      if (isLead(name, schema)) return <textarea {...common} rows={4} value={shown} onInput={onInput} />;
      if (kind.multiline) return <textarea {...common} rows={2} value={shown} onInput={onInput} />;
      if (schema.format === "uri") return <input {...common} type="url" value={shown} onInput={onInput} />;
      return <input {...common} type="text" value={shown} onInput={onInput} />;
    }
    default:
      return <JsonField id={id} value={value} onChange={set} describedBy={describedBy} invalid={invalid} />;
  }
}

// What bounds a field says in words. Offered values say theirs by being the ones offered (their length or range
// in words would be the schema's, not the person's); a text's length is counted as it is typed (LengthCounter).
function fieldBounds(name: string, schema: JsonSchema, offer: FieldOffer | undefined): string {
  const kind = fieldKind(name, schema);
  if (kind.kind !== "media" && kind.kind !== "const" && choicesOf(name, schema, offer) !== null) return "";
  if (kind.kind === "text" && schema.maxLength !== undefined) return boundsText({ ...schema, minLength: undefined, maxLength: undefined });
  return boundsText(schema);
}

const count = new Intl.NumberFormat("en");

// "812 / 20,000" beside a text field with a limit, as it is typed, in characters as JSON Schema and the service
// count them (code points: an emoji is one); past the limit it says by how much, in the error colour.
function LengthCounter({ value, max }: { value: unknown; max: number }) {
  const length = typeof value === "string" ? [...value].length : 0;
  const over = length - max;
  return (
    <span class={`counter${over > 0 ? " error-text" : ""}`} data-length={length}>
      {count.format(length)} / {count.format(max)}
      {over > 0 && <> · {count.format(over)} too many</>}
    </span>
  );
}

function Group({ legend, hint, error, id, children }: { legend: string; hint: string; error: string | undefined; id: string; children: ComponentChildren }) {
  return (
    <fieldset class="group" id={id} aria-describedby={`${id}-help${error ? ` ${id}-error` : ""}`} aria-invalid={error ? true : undefined} tabIndex={-1}>
      <legend>{legend}</legend>
      {hint && <p class="hint" id={`${id}-help`}>{hint}</p>}
      {error && <p class="error-text" id={`${id}-error`} role="alert">{error}</p>}
      {children}
    </fieldset>
  );
}

function ListField(props: FieldProps & { item: (index: number) => ComponentChildren; blank: unknown }) {
  const { schema, path, body, onBody } = props;
  const list = (valueAt(body, path) as unknown[] | undefined) ?? [];
  const rows = Math.max(list.length, props.required ? Math.max(schema.minItems ?? 1, 1) : 0);
  const id = fieldId(path);
  const remove = (index: number) => {
    const next = list.filter((_, i) => i !== index);
    onBody(setAt(body, path, next.length > 0 ? next : undefined));
  };
  return (
    <Group legend={`${humanName(props.name)}${props.required ? " (required)" : ""}`} hint={[schema.description, boundsText(schema)].filter(Boolean).join(" — ")} error={errorFor(props.ctx, path, false)} id={id}>
      {Array.from({ length: rows }, (_, index) => (
        <div class="list-item">
          {props.item(index)}
          {index < list.length && (
            <button type="button" class="link" onClick={() => remove(index)} aria-label={`Remove ${humanName(props.name)} ${index + 1}`}>
              Remove
            </button>
          )}
        </div>
      ))}
      {(schema.maxItems === undefined || rows < schema.maxItems) && (
        <button type="button" class="secondary" onClick={() => onBody(setAt(body, [...path, rows], props.blank))}>
          Add {humanName(props.name).replace(/s$/, "")}
        </button>
      )}
    </Group>
  );
}

export function Field(props: FieldProps & { parent?: JsonSchema }) {
  const { name, schema, path, required, ctx } = props;
  const kind = fieldKind(name, schema);
  const id = fieldId(path);
  const offer = offerFor(ctx, path);
  const unsupported = offer?.unsupported === true ? `${ctx.model ?? "No live model"} does not take it.` : "";
  const counted = kind.kind === "text" && schema.maxLength !== undefined;
  const hint = [unsupported, schema.description, fieldBounds(name, schema, offer)].filter(Boolean).join(" — ");
  if (kind.kind === "object") {
    return (
      <Group legend={humanName(name)} hint={hint} error={errorFor(ctx, path, false)} id={id}>
        <div class="field-row">
          {Object.entries(kind.properties)
            .filter(([, childSchema]) => childSchema.const === undefined)
            .map(([child, childSchema]) => (
              <Field {...props} name={child} schema={childSchema} path={[...path, child]} required={kind.required.includes(child)} parent={schema} />
            ))}
        </div>
      </Group>
    );
  }
  if (kind.kind === "media-list" && schema.items) {
    const items = schema.items;
    return <ListField {...props} blank={null} item={(index) => <Field {...props} name={`${name} ${index + 1}`} schema={items} path={[...path, index]} required />} />;
  }
  if (kind.kind === "object-list") {
    const item = kind.item;
    return <ListField {...props} blank={{}} item={(index) => <Field {...props} name={`${name} ${index + 1}`} schema={item} path={[...path, index]} required />} />;
  }
  const error = errorFor(ctx, path, true);
  const describedBy = `${id}-help${error ? ` ${id}-error` : ""}`;
  const custom = path.length === 1 ? ctx.custom[name] : undefined;
  // A control of its own says what it offers; the schema's words are for API callers (`svc.models.list …`).
  const help = custom ? "" : hint;
  const control = { id, labelId: `${id}-label`, describedBy, invalid: error !== undefined };
  return (
    <div class={`field${kind.kind === "const" ? " checkbox-field" : ""}`}>
      <label for={id} id={`${id}-label`}>
        {humanName(name)}
        {required && <span class="required"> (required)</span>}
      </label>
      {custom ? custom(control) : <Control {...props} {...control} />}
      <p class="hint" id={`${id}-help`}>
        {help}
        {counted && !custom && <LengthCounter value={valueAt(props.body, path)} max={schema.maxLength!} />}
      </p>
      {error && (
        <p class="error-text" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

type Entry = [string, JsonSchema];

// The fields in the playground's order: the request's words and media, then its choices, then the rest.
function arrange(schema: JsonSchema, ctx: FormContext): { lead: Entry[]; choices: Entry[]; advanced: Entry[] } {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  const lead = entries.filter(([name, s]) => !COMMON.has(name) && isLead(name, s));
  const rest = entries.filter((entry) => !lead.includes(entry));
  const chosen = (name: string, s: JsonSchema) => !COMMON.has(name) && (required.has(name) || name in ctx.custom || isChoice(name, s, [name], ctx));
  const first = (name: string) => (name === "model" ? 0 : name in ctx.custom ? 1 : 2);
  const choices = rest.filter(([name, s]) => chosen(name, s)).sort(([a], [b]) => first(a) - first(b));
  return { lead, choices, advanced: rest.filter((entry) => !choices.includes(entry)) };
}

export function SchemaForm({ schema, body, onBody, ctx }: { schema: JsonSchema; body: unknown; onBody(body: unknown): void; ctx: FormContext }) {
  const required = new Set(schema.required ?? []);
  const { lead, choices, advanced } = arrange(schema, ctx);
  const setCount = advanced.filter(([name]) => valueAt(body, [name]) !== undefined).length;
  const advancedError = advanced.some(([name]) => [...ctx.errors.keys()].some((p) => p === `/${name}` || p.startsWith(`/${name}/`)));
  const field = ([name, fieldSchema]: Entry) => (
    <Field name={name} schema={fieldSchema} path={[name]} required={required.has(name)} body={body} onBody={onBody} ctx={ctx} />
  );

  // The first field a refusal points at takes the focus, so a keyboard or screen-reader user lands on it: in the
  // same render that shows the error (a layout effect), never a frame later.
  useLayoutEffect(() => {
    if (ctx.errors.size === 0) return;
    const invalid = document.querySelector<HTMLElement>('form [aria-invalid="true"]');
    invalid?.focus();
  }, [ctx.errors]);

  return (
    <>
      {lead.map(field)}
      <div class="choices">{choices.map(field)}</div>
      {advanced.length > 0 && (
        <details class="advanced" open={advancedError}>
          <summary>
            Advanced options{setCount > 0 ? ` (${setCount} set)` : ""}
          </summary>
          {advanced.map(field)}
        </details>
      )}
    </>
  );
}
