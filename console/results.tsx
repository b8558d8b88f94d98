import { ArtifactActions, CopyButton } from "./artifact-actions";
import { Gallery } from "./gallery";
import { handOff } from "./hand-off";
import type { Artifact, Task } from "./types";
import { Audio, Video } from "./media-element";

// What a finished task produced, the way people look at it: images in a grid that fits the window (gallery.tsx),
// a video player, audio players with their length (their URLs serve byte ranges, so the players seek), text as
// text, a cloned voice ready to speak with; each with what can be done with it next.

export function duration(seconds: number | undefined): string {
  if (seconds === undefined) return "";
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${(seconds - minutes * 60).toFixed(1).padStart(4, "0")}`;
}

function caption(artifact: Artifact): string {
  const size = artifact.width ? `${artifact.width}×${artifact.height}` : "";
  const length = artifact.duration_seconds !== undefined ? duration(artifact.duration_seconds) : "";
  return [artifact.role, artifact.format, size, length, `${Math.ceil(artifact.byte_size / 1024)} KiB`].filter(Boolean).join(" · ");
}

// A video or audio result in its player.
function PlayerView({ artifact }: { artifact: Artifact }) {
  const label = caption(artifact);
  return (
    <figure class={`artifact ${artifact.kind}-artifact`} data-artifact={artifact.artifact_id}>
      {artifact.kind === "video" ? (
        <Video controls preload="metadata" playsInline src={artifact.url} width={artifact.width} height={artifact.height} aria-label={`Result: ${label}`} />
      ) : (
        <Audio controls preload="metadata" src={artifact.url} aria-label={`Result: ${label}`} />
      )}
      <figcaption>
        <span class="caption">{label}</span>
        <ArtifactActions artifact={artifact} />
      </figcaption>
    </figure>
  );
}

export function Results({ task }: { task: Task }) {
  const output = task.output;
  if (!output) return null;
  const artifacts = output.artifacts;
  const images = artifacts.filter((a) => a.kind === "image");
  const others = artifacts.filter((a) => a.kind !== "image");
  const voiceId = typeof output.voice_id === "string" ? output.voice_id : null;
  return (
    <section class="results" aria-label="Results">
      {output.text !== undefined && (
        <div class="output-text">
          <p>{output.text}</p>
          <CopyButton text={output.text} label="Copy text" />
        </div>
      )}
      {voiceId && (
        <p class="output-voice">
          New voice <code>{voiceId}</code>{" "}
          <button type="button" class="secondary" onClick={() => handOff("text_to_speech", { voice: voiceId })}>
            Speak with it
          </button>
        </p>
      )}
      {images.length > 0 && <Gallery images={images} label={caption} />}
      {others.map((a) => (
        <PlayerView artifact={a} />
      ))}
    </section>
  );
}

export function UsageAndBilling({ task }: { task: Task }) {
  const lines = task.usage?.lines ?? [];
  return (
    <details class="usage">
      <summary>Usage and billing</summary>
      {lines.length > 0 && (
        <ul>
          {lines.map((line) => (
            <li>
              {line.meter}: {line.quantity} {line.unit} → {line.billed_amount_credits} credits
            </li>
          ))}
        </ul>
      )}
      <dl class="pairs billing">
        {Object.entries(task.billing).map(([key, value]) => (
          <>
            <dt>{key.replace(/_/g, " ")}</dt>
            <dd data-billing={key}>{value}</dd>
          </>
        ))}
      </dl>
    </details>
  );
}
