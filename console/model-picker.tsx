import { lifecycleBadge, optionNote, retirementSentence } from "./model-lifecycle";
import { priceLine, priceSummary } from "./prices";
import type { FieldControlProps } from "./schema-form";
import type { ModelCard } from "./types";

// The model of a request, chosen from the capability's models with what each card says: whether it is live on
// this deployment (a model that is not, or has retired, cannot be chosen), whether it is deprecated and when it
// retires, and what it costs; the chosen model's description, retirement, price lines and the input limits its
// vendor publishes below.

interface ModelPickerProps extends FieldControlProps {
  models: string[];
  cards: Map<string, ModelCard>;
  value: string;
  onChange(model: string): void;
}

function optionText(id: string, card: ModelCard | undefined): string {
  if (id === "auto") return "auto — a live model that takes every option";
  if (!card) return id;
  return `${id} · ${optionNote(card)} · ${priceSummary(card.prices)}`;
}

function limitsText(limits: ModelCard["input_limits"]): string[] {
  return Object.entries(limits).map(
    ([input, bounds]) =>
      `${input.replace(/_/g, " ")}: ${Object.entries(bounds as Record<string, unknown>)
        .map(([name, value]) => `${name.replace(/_/g, " ")} ${Array.isArray(value) ? value.join("/") : String(value)}`)
        .join(", ")}`,
  );
}

export function ModelPicker({ id, describedBy, invalid, models, cards, value, onChange }: ModelPickerProps) {
  const card = cards.get(value);
  const badge = card && lifecycleBadge(card);
  const retirement = card && retirementSentence(card);
  return (
    <>
      <select id={id} aria-describedby={describedBy} aria-invalid={invalid} value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}>
        {models.map((m) => (
          <option value={m} disabled={cards.get(m)?.live === false}>
            {optionText(m, cards.get(m))}
          </option>
        ))}
      </select>
      {card && (
        <div class="model-card" data-model={card.id}>
          <p>
            <span class={`badge ${badge?.className}`}>{badge?.text}</span> {card.description}
          </p>
          {retirement && (
            <p class="retirement" role="note">
              {retirement}
            </p>
          )}
          <ul class="prices">
            {card.prices.map((price) => (
              <li>{priceLine(price)}</li>
            ))}
          </ul>
          {Object.keys(card.input_limits).length > 0 && (
            <details>
              <summary>Input limits</summary>
              <ul class="limits">
                {limitsText(card.input_limits).map((line) => (
                  <li>{line}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </>
  );
}
