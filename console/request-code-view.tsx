import { useMemo, useState } from "preact/hooks";
import { CopyButton } from "./artifact-actions";
import { newIdempotencyKey } from "./idempotency-key";
import { KEY_VARIABLE, requestCode, type RequestCode } from "./request-code";
import type { CapabilityCard } from "./types";

// "Request as code" under the result: the form as it stands, as curl, TypeScript or an MCP tool call, one at a
// time with its copy button; it follows every change to the form.

const LANGUAGES: { id: keyof RequestCode; label: string }[] = [
  { id: "curl", label: "curl" },
  { id: "typescript", label: "TypeScript" },
  { id: "mcp", label: "MCP tool call" },
];

const NOTES: Record<keyof RequestCode, string> = {
  curl: `Set ${KEY_VARIABLE} to your API key first (export ${KEY_VARIABLE}=…). Sent again as it is, it answers the same task.`,
  typescript: `The README's client (@media-task-service/client); run it with tsx as an .mts file, with ${KEY_VARIABLE} set.`,
  mcp: "The tools/call message an MCP client sends; the same client_request_id answers the same task.",
};

export function RequestCodeView({ card, body }: { card: CapabilityCard; body: Record<string, unknown> }) {
  const [language, setLanguage] = useState<keyof RequestCode>("curl");
  const json = JSON.stringify(body);
  // One key per body: the snippet keeps it while the form is unchanged, so copying twice is one task.
  const key = useMemo(newIdempotencyKey, [json, card.id]);
  const code = requestCode({ origin: location.origin, path: card.path, capability: card.id, toolName: card.tool_name, body, key });
  return (
    <details class="request-code">
      <summary>Request as code</summary>
      <div class="segments" role="radiogroup" aria-label="Written as">
        {LANGUAGES.map((l) => (
          <label class={`segment${l.id === language ? " checked" : ""}`}>
            <input type="radio" name="request-code-language" checked={l.id === language} onChange={() => setLanguage(l.id)} />
            {l.label}
          </label>
        ))}
      </div>
      <pre class="code" data-language={language} tabIndex={0} aria-label={`The request as ${language}`}>
        {code[language]}
      </pre>
      <div class="actions">
        <CopyButton key={language} text={code[language]} label={`Copy ${LANGUAGES.find((l) => l.id === language)!.label}`} />
      </div>
      <p class="hint">{NOTES[language]}</p>
    </details>
  );
}
