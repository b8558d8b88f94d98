import { formatCredits } from "../credits/money.js";
import { CAPABILITIES } from "../capabilities/table.js";
import { ALL_MODELS } from "./registry.js";

function constraintValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? "—" : value.join(", ");
  if (value !== null && typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${constraintValue(v)}`)
      .join("; ");
  }
  return String(value);
}

// docs/models.md, generated from the registry (`npm run docs:models`); a test keeps the file and the data equal.
export function renderModelsDoc(): string {
  const lines: string[] = [
    "# Models",
    "",
    "Generated from `core/catalog/` by `npm run docs:models`; do not edit by hand. SPEC.md leaves constraints and",
    "prices open: these are the service's values, and the catalog endpoints, validation, selection and billing all",
    "read them from the same registry.",
    "",
    "## Models per endpoint",
    "",
    "| endpoint | capability | models (besides `auto`), in selection order |",
    "|---|---|---|",
    ...CAPABILITIES.map((c) => `| \`POST ${c.path}\` | \`${c.id}\` | ${c.ignoresModel ? "(model ignored)" : c.modelIds.map((m) => `\`${m}\``).join(", ") || "`auto` only"} |`),
    "",
  ];
  for (const model of ALL_MODELS) {
    lines.push(`## \`${model.id}\``, "", `${model.description}`, "");
    lines.push(`- family: \`${model.family}\`; kind: ${model.kind}; capabilities: ${model.capabilities.map((c) => `\`${c}\``).join(", ")}`);
    lines.push("", "| constraint | value |", "|---|---|");
    for (const [key, value] of Object.entries(model.constraints)) lines.push(`| ${key} | ${constraintValue(value)} |`);
    lines.push("", "| meter | price (credits) | per | when |", "|---|---|---|---|");
    for (const price of model.prices) {
      const when = price.when ? Object.entries(price.when).map(([k, v]) => `${k}=${v}`).join(", ") : "";
      lines.push(`| ${price.meter} | ${formatCredits(price.microPerUnit)} | ${price.per} ${price.unit} | ${when} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
