import type { ComponentChildren } from "preact";
import { useLayoutEffect, useState } from "preact/hooks";
import { MediaInput } from "./media-input";
import { boundsText, fieldId, fieldKind, humanName, pointerOf, setAt } from "./schema";
import type { JsonSchema } from "./types";

// A form generated from a capability's JSON Schema: one control per field, chosen from the field's type, with its
// description, bounds and default as the hint. The request body is built as the fields are edited; an emptied
// field is left out, so the service applies its default. The browser's own validation is off: the service checks
// the body and its refusals come back to the field they point at (`errors`, by JSON Pointer).

type Path = (string | number)[];

export interface FormContext {
  errors: Map<string, string>;
  // Values to offer for a field, by its path joined with "_" (`voice`, `canvas_tier`): voices, signing keys, and
  // the values the chosen model's catalog constraints allow.
  suggestions: Record<string, string[]>;
  // Replaces the control of a top-level field (the model picker for `model`).
  custom: Record<string, (props: { id: string; describedBy: string; invalid: boolean }) => ComponentChildren>;
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

// Fields every create takes, shown folded under the capability's own.
const ADVANCED = new Set(["metadata", "callback_url", "callback_signing_key_id", "model_options"]);

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

function Choices({ id, values }: { id: string; values: string[] | undefined }) {
  if (!values) return null;
  return (
    <datalist id={`${id}-choices`}>
      {values.map((v) => (
        <option value={v} />
      ))}
    </datalist>
  );
}

function Control({ name, schema, path, body, onBody, ctx, id, describedBy, invalid }: FieldProps & { id: string; describedBy: string; invalid: boolean }) {
  const value = valueAt(body, path);
  const set = (next: unknown) => onBody(setAt(body, path, next));
  const kind = fieldKind(name, schema);
  const suggestions = ctx.suggestions[path.join("_")];
  const common = { id, "aria-describedby": describedBy, "aria-invalid": invalid };
  const list = suggestions ? `${id}-choices` : undefined;
  switch (kind.kind) {
    case "media":
      return <MediaInput id={id} name={name} value={value} onChange={set} describedBy={describedBy} invalid={invalid} />;
    case "enum":
      return (
        <select {...common} value={value === undefined ? "" : String(value)} onChange={(e) => set((e.currentTarget as HTMLSelectElement).value || undefined)}>
          <option value="">{schema.default !== undefined ? `(default: ${String(schema.default)})` : "(not set)"}</option>
          {kind.values.map((v) => (
            <option value={String(v)}>{String(v)}</option>
          ))}
        </select>
      );
    case "boolean":
      return (
        <select {...common} value={value === undefined ? "" : String(value)} onChange={(e) => {
          const choice = (e.currentTarget as HTMLSelectElement).value;
          set(choice === "" ? undefined : choice === "true");
        }}>
          <option value="">{schema.default !== undefined ? `(default: ${String(schema.default)})` : "(not set: the model's default)"}</option>
          <option value="true">yes</option>
          <option value="false">no</option>
        </select>
      );
    case "const":
      return <input {...common} type="checkbox" checked={value === kind.value} onChange={(e) => set((e.currentTarget as HTMLInputElement).checked ? kind.value : undefined)} />;
    case "number":
      return (
        <>
          <input
            {...common}
            type="number"
            list={list}
            step={kind.integer ? 1 : "any"}
            min={schema.minimum}
            max={schema.maximum !== undefined && schema.maximum < 2 ** 31 ? schema.maximum : undefined}
            placeholder={schema.default !== undefined ? String(schema.default) : undefined}
            value={value === undefined ? "" : String(value)}
            onInput={(e) => {
              const raw = (e.currentTarget as HTMLInputElement).value;
              set(raw === "" ? undefined : Number(raw));
            }}
          />
          <Choices id={id} values={suggestions} />
        </>
      );
    case "mixed":
      return (
        <>
          <input
            {...common}
            type="text"
            list={list}
            placeholder={kind.alternatives.join(" or ")}
            value={value === undefined ? "" : String(value)}
            onInput={(e) => {
              const raw = (e.currentTarget as HTMLInputElement).value.trim();
              set(raw === "" ? undefined : /^-?\d+(\.\d+)?$/.test(raw) && kind.alternatives.some((a) => a === "integer" || a === "number") ? Number(raw) : raw);
            }}
          />
          <Choices id={id} values={suggestions} />
        </>
      );
    case "text": {
      const onInput = (e: Event) => set((e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value || undefined);
      if (kind.multiline) return <textarea {...common} rows={3} value={value === undefined ? "" : String(value)} onInput={onInput} />;
      return (
        <>
          <input {...common} type="text" list={list} value={value === undefined ? "" : String(value)} onInput={onInput} />
          <Choices id={id} values={suggestions} />
        </>
      );
    }
    default:
      return <JsonField id={id} value={value} onChange={set} describedBy={describedBy} invalid={invalid} />;
  }
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
          <button type="button" class="secondary" onClick={() => remove(index)} aria-label={`Remove ${humanName(props.name)} ${index + 1}`}>
            Remove
          </button>
        </div>
      ))}
      {(schema.maxItems === undefined || rows < schema.maxItems) && (
        <button type="button" class="secondary" onClick={() => onBody(setAt(body, [...path, rows], props.blank))}>
          Add {humanName(props.name)}
        </button>
      )}
    </Group>
  );
}

export function Field(props: FieldProps) {
  const { name, schema, path, required, ctx } = props;
  const kind = fieldKind(name, schema);
  const id = fieldId(path);
  const hint = [schema.description, boundsText(schema)].filter(Boolean).join(" — ");
  if (kind.kind === "object") {
    return (
      <Group legend={humanName(name)} hint={hint} error={errorFor(ctx, path, false)} id={id}>
        {Object.entries(kind.properties).map(([child, childSchema]) => (
          <Field {...props} name={child} schema={childSchema} path={[...path, child]} required={kind.required.includes(child)} />
        ))}
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
  return (
    <div class={`field${kind.kind === "const" ? " checkbox-field" : ""}`}>
      <label for={id}>
        {humanName(name)}
        {required && <span class="required"> (required)</span>}
      </label>
      {custom ? custom({ id, describedBy, invalid: error !== undefined }) : <Control {...props} id={id} describedBy={describedBy} invalid={error !== undefined} />}
      <p class="hint" id={`${id}-help`}>{hint}</p>
      {error && (
        <p class="error-text" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function SchemaForm({ schema, body, onBody, ctx }: { schema: JsonSchema; body: unknown; onBody(body: unknown): void; ctx: FormContext }) {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const main = properties.filter(([name]) => !ADVANCED.has(name)).sort(([a], [b]) => Number(required.has(b)) - Number(required.has(a)));
  const advanced = properties.filter(([name]) => ADVANCED.has(name));
  const advancedError = advanced.some(([name]) => [...ctx.errors.keys()].some((p) => p === `/${name}` || p.startsWith(`/${name}/`)));
  const field = ([name, fieldSchema]: [string, JsonSchema]) => (
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
      {main.map(field)}
      {advanced.length > 0 && (
        <details class="advanced" open={advancedError}>
          <summary>Callback, metadata and model options</summary>
          {advanced.map(field)}
        </details>
      )}
    </>
  );
}
