import type { Artifact, TaskEnvelope } from "./types";

// What a finished task produced, the way people look at it: images at their size, players for audio and video
// (their URLs serve byte ranges, so the players seek), text as text, then the usage and billing lines.

function ArtifactView({ artifact }: { artifact: Artifact }) {
  const label = `${artifact.kind}${artifact.role ? ` (${artifact.role})` : ""}, ${artifact.format}`;
  const download = (
    <a href={artifact.url} download={`${artifact.artifact_id}.${artifact.format}`}>
      Download {artifact.format} ({Math.ceil(artifact.byte_size / 1024)} KiB)
    </a>
  );
  if (artifact.kind === "image") {
    return (
      <figure class="artifact image-artifact">
        <img src={artifact.url} width={artifact.width} height={artifact.height} alt={`Generated ${label}`} />
        <figcaption>
          {artifact.width}×{artifact.height} · {download}
        </figcaption>
      </figure>
    );
  }
  const size = artifact.width ? `${artifact.width}×${artifact.height}, ` : "";
  const caption = `${label}, ${size}${artifact.duration_seconds ?? "?"} s`;
  return (
    <figure class={`artifact ${artifact.kind}-artifact`}>
      {artifact.kind === "video" ? (
        <video controls preload="metadata" src={artifact.url} width={artifact.width} height={artifact.height} aria-label={caption} />
      ) : (
        <audio controls preload="metadata" src={artifact.url} aria-label={caption} />
      )}
      <figcaption>
        {caption} · {download}
      </figcaption>
    </figure>
  );
}

const SHOWN_ELSEWHERE = new Set(["type", "text", "artifacts", "clips"]);

export function Results({ task }: { task: TaskEnvelope }) {
  const output = task.output ?? {};
  const artifacts = output.artifacts ?? [];
  const images = artifacts.filter((a) => a.kind === "image");
  const players = artifacts.filter((a) => a.kind !== "image");
  const extra = Object.entries(output).filter(([key]) => !SHOWN_ELSEWHERE.has(key));
  return (
    <section class="results" aria-label="Results">
      {output.text !== undefined && (
        <div class="output-text">
          <h4>Text</h4>
          <p>{output.text}</p>
        </div>
      )}
      {images.length > 0 && (
        <div class="image-grid">
          {images.map((a) => (
            <ArtifactView artifact={a} />
          ))}
        </div>
      )}
      {players.map((a) => (
        <ArtifactView artifact={a} />
      ))}
      {extra.length > 0 && (
        <dl class="pairs">
          {extra.map(([key, value]) => (
            <>
              <dt>{key}</dt>
              <dd>{typeof value === "string" ? value : JSON.stringify(value)}</dd>
            </>
          ))}
        </dl>
      )}
    </section>
  );
}

export function UsageAndBilling({ task }: { task: TaskEnvelope }) {
  const lines = task.usage?.lines ?? [];
  const billing = Object.entries(task.billing ?? {}).filter(([, v]) => v !== null && v !== undefined);
  if (lines.length === 0 && billing.length === 0) return null;
  return (
    <section class="usage" aria-label="Usage and billing">
      {lines.length > 0 && (
        <table>
          <caption>Usage</caption>
          <thead>
            <tr>
              <th scope="col">Meter</th>
              <th scope="col">Quantity</th>
              <th scope="col">Credits</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr>
                <td>{line.meter}</td>
                <td>
                  {line.quantity} {line.unit}
                </td>
                <td>{line.billed_amount_credits}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {billing.length > 0 && (
        <dl class="pairs billing">
          {billing.map(([key, value]) => (
            <>
              <dt>{key.replace(/_/g, " ")}</dt>
              <dd data-billing={key}>{value}</dd>
            </>
          ))}
        </dl>
      )}
    </section>
  );
}
