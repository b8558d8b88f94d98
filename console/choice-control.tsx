import type { Offered } from "./model-offers";

// One value out of a known few: buttons side by side when they are few and short (a tier, an aspect, a duration),
// a select otherwise (forty languages). An optional field's first choice is "leave it out", so the service applies
// its (or the model's) default, named when the card says what it is.

export interface ChoiceProps {
  id: string;
  labelId: string;
  values: Offered[];
  value: unknown;
  onChange(value: Offered | undefined): void;
  // The first choice's words, "Default (5)"; null for a required field, which has no default to fall back on.
  unsetLabel: string | null;
  label?: (value: Offered) => string;
  describedBy: string;
  invalid: boolean;
  disabled?: boolean;
}

const MAX_BUTTONS = 7;
const MAX_BUTTON_TEXT = 8;

export function ChoiceControl(props: ChoiceProps) {
  const { id, values, value, onChange } = props;
  const text = props.label ?? ((v: Offered) => (typeof v === "boolean" ? (v ? "Yes" : "No") : String(v)));
  const index = values.findIndex((v) => v === value);
  const buttons = values.length <= MAX_BUTTONS && values.every((v) => text(v).length <= MAX_BUTTON_TEXT);
  if (!buttons) {
    return (
      <select
        id={id}
        aria-describedby={props.describedBy}
        aria-invalid={props.invalid}
        disabled={props.disabled}
        value={index === -1 ? "" : String(index)}
        onChange={(e) => {
          const chosen = (e.currentTarget as HTMLSelectElement).value;
          onChange(chosen === "" ? undefined : values[Number(chosen)]);
        }}
      >
        <option value="" disabled={props.unsetLabel === null}>
          {props.unsetLabel ?? "Choose…"}
        </option>
        {values.map((v, i) => (
          <option value={String(i)}>{text(v)}</option>
        ))}
      </select>
    );
  }
  const option = (label: string, checked: boolean, chosen: Offered | undefined) => (
    <label class={`segment${checked ? " checked" : ""}`}>
      <input type="radio" name={id} checked={checked} disabled={props.disabled} onChange={() => onChange(chosen)} />
      {label}
    </label>
  );
  return (
    <div
      class="segments"
      role="radiogroup"
      id={id}
      tabIndex={-1}
      aria-labelledby={props.labelId}
      aria-describedby={props.describedBy}
      aria-invalid={props.invalid}
      aria-disabled={props.disabled}
    >
      {props.unsetLabel !== null && option(props.unsetLabel, index === -1, undefined)}
      {values.map((v, i) => option(text(v), i === index, v))}
    </div>
  );
}
