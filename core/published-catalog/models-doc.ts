import { formatCredits } from "../credits/money.js";
import { CAPABILITIES } from "../capabilities/table.js";
import type { InputLimits } from "../catalog/input-limits.js";
import { ALL_MODELS } from "../catalog/registry.js";

function constraintValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? "—" : value.join(", ");
  if (value !== null && typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${constraintValue(v)}`)
      .join("; ");
  }
  return String(value);
}

// The vendor's published input limits; a model with none is held to the service's own caps alone.
function inputLimitLines(limits: InputLimits): string[] {
  const entries = Object.entries(limits);
  if (entries.length === 0) return ["Input limits: none published by the vendor; the service's own caps apply (see above)."];
  return ["| input | published limits |", "|---|---|", ...entries.map(([input, value]) => `| ${input} | ${constraintValue(value)} |`)];
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
    "Each model also lists the input limits its vendor publishes (docs/providers/input-limits.md gives the sources):",
    "pictures (`formats`, `min_side` and `max_side` in px, `max_pixels`, `min_aspect` and `max_aspect` as width /",
    "height, `max_bytes`), video and audio (`formats`, `codecs`, `min_seconds`, `max_seconds`, `min_fps`, `max_fps`,",
    "`min_sample_rate`, `max_sample_rate`, `max_bytes`), the inputs of one kind together",
    "(`total_seconds`, every input of the kind counted) and text fields (`text`: most characters per field). `reference_*` limits apply to",
    "`references[].media` of that kind, the plain ones to every other input of the kind. An input is checked at",
    "admission when its bytes are in hand (a data URI, an artifact): `auto` then passes over a model it breaks and a",
    "concrete model is refused (`media_too_large` for bytes, else `unsupported_option`, with `param` at the input). A",
    "URL is checked by the worker once downloaded, before any vendor call: a concrete model fails the task with the",
    "same code, not retryable, refunded; `auto` chooses again among the live models at the new model's price, or",
    "fails `no_eligible_model` (docs/decisions.md, \"Published input limits\"). Bounds a vendor does not publish are",
    "the service's own, for every model: images at most 50 MiB, audio 200 MiB, video 1 GiB, each also at most",
    "`MEDIA_INPUT_MAX_BYTES` (100 MiB by default).",
    "",
    "Extend durations: SPEC.md lets `POST /v1/videos/extend` ask for 2 to 30 s, each model narrowing it",
    "(`extend_max_duration`). Every vendor reference read (Seedance 2.x, Wan 2.7) ends at 15 s, so 16 to 30 s is",
    "offered only by `vendorC3.0-video-prime`, a card with no published vendor behind it (it runs against the",
    "emulator); no card is widened beyond its vendor's reference to reach SPEC.md's 30 (docs/decisions.md, \"Extend",
    "durations\").",
    "",
    "## Retirements",
    "",
    "A model's retirement is set by the operator, not written here: `MODEL_RETIREMENTS` at start, `svc model retire",
    "<id> --on <date> [--deprecated-from <date>] [--replacement <id>]` and `--clear` at run time (docs/configuration.md,",
    "docs/decisions.md). Every card of the catalog (`GET /v1/catalog/models/{model}`, the model list, capability cards,",
    "`svc.models.list`, the console) shows it as it stands: `lifecycle` (`active`, `deprecated`, `retired`),",
    "`deprecated_at` and `retires_at` (ISO 8601, null when none is set) and `replacement` (a model id or null).",
    "",
    "- From `deprecated_at` the model is still served, but `auto` passes over it while a live compatible model that is",
    "  not deprecated remains (`model_selection_reason` names it), and a task on it carries a `model_deprecated`",
    "  warning; REST's 202 adds `Deprecation: @<unix seconds>` (RFC 9745) and `Sunset: <HTTP-date>` (RFC 8594).",
    "- From `retires_at` it is not live: a request naming it is refused at admission with `unsupported_model` (400, not",
    "  retryable, `details.reason` `retired`, `details.replacement` when the operator named one), nothing held, and",
    "  `auto` never takes it (`model_retired` among `candidate_failures` when nothing else fits).",
    "- A task admitted before then runs or fails as the vendor answers.",
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
    lines.push("", ...inputLimitLines(model.input_limits));
    lines.push("", "| meter | price (credits) | per | when |", "|---|---|---|---|");
    for (const price of model.prices) {
      const when = price.when ? Object.entries(price.when).map(([k, v]) => `${k}=${v}`).join(", ") : "";
      lines.push(`| ${price.meter} | ${formatCredits(price.microPerUnit)} | ${price.per} ${price.unit} | ${when} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
