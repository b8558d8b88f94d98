import { useState } from "preact/hooks";
import { handOff } from "./hand-off";
import { inputTargets, targetBody, type InputTarget } from "./input-targets";
import { rememberPreview } from "./media-previews";
import type { Artifact } from "./types";

// What can be done with one result: download it, copy its link (signed: it works without a key until it
// expires), or use it as the input of another capability, which opens that capability's form with it in place.

// The clipboard API exists only in secure contexts (HTTPS, localhost); elsewhere the link is shown selected.
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "manual">("idle");
  return (
    <>
      <button type="button" class="secondary" onClick={async () => setState((await copyText(text)) ? "copied" : "manual")}>
        {state === "copied" ? "Copied" : label}
      </button>
      {state === "manual" && <input class="manual-copy" type="text" readOnly value={text} aria-label={label} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />}
    </>
  );
}

function UseAsInput({ artifact }: { artifact: Artifact }) {
  const [targets, setTargets] = useState<InputTarget[] | null>(null);
  const use = (target: InputTarget) => {
    rememberPreview(artifact.artifact_id, { url: artifact.url, kind: artifact.kind, label: `${artifact.kind} ${artifact.format}${artifact.width ? ` ${artifact.width}×${artifact.height}` : ""}` });
    handOff(target.capability, targetBody(target, artifact.artifact_id));
  };
  return (
    <details
      class="menu"
      onToggle={(e) => {
        if ((e.currentTarget as HTMLDetailsElement).open && targets === null) void inputTargets(artifact.kind).then(setTargets);
      }}
    >
      <summary>Use as input</summary>
      <ul>
        {targets === null && <li class="hint">Reading the catalog…</li>}
        {targets?.map((target) => (
          <li>
            <button type="button" class="link" onClick={() => use(target)}>
              {target.title} <span class="hint">({target.field.replace(/_/g, " ")})</span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function ArtifactActions({ artifact }: { artifact: Artifact }) {
  return (
    <div class="artifact-actions">
      <a class="button secondary" href={artifact.url} download={`${artifact.artifact_id}.${artifact.format}`}>
        Download
      </a>
      <CopyButton text={artifact.url} label="Copy link" />
      <UseAsInput artifact={artifact} />
    </div>
  );
}
