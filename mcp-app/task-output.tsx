import { galleryClass } from "../console/gallery-grid";
import type { Artifact, Task } from "./task";

// What a finished task made, shown the way people take it in: images (in the console's grid), players
// for video and audio (the signed URLs serve byte ranges, so they seek), a new voice with its sample, the text of
// an understanding; then a download link per artifact.

export interface Saver {
  // The host takes downloads (or opens links): the view's sandbox may forbid its own.
  viaHost: boolean;
  save(artifact: Artifact): void;
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${Math.max(1, Math.round(bytes / 1024))} KiB`;
}

function Gallery({ images }: { images: Artifact[] }) {
  return (
    <div class={galleryClass(images.length)}>
      {images.map((image, i) => (
        <img key={image.artifact_id} src={image.url} width={image.width} height={image.height} alt={`Image ${i + 1} of ${images.length}, ${image.width}×${image.height}`} />
      ))}
    </div>
  );
}

function Player({ artifact, label }: { artifact: Artifact; label: string }) {
  if (artifact.kind === "video") {
    return <video controls playsInline preload="metadata" src={artifact.url} width={artifact.width} height={artifact.height} aria-label={label} />;
  }
  return <audio controls preload="metadata" src={artifact.url} aria-label={label} />;
}

function Downloads({ artifacts, saver }: { artifacts: Artifact[]; saver: Saver }) {
  return (
    <ul class="downloads" aria-label="Downloads">
      {artifacts.map((artifact) => (
        <li key={artifact.artifact_id}>
          <a
            href={artifact.url}
            target="_blank"
            rel="noopener noreferrer"
            download={`${artifact.artifact_id}.${artifact.format ?? "bin"}`}
            onClick={(event) => {
              if (!saver.viaHost) return;
              event.preventDefault();
              saver.save(artifact);
            }}
          >
            Download {artifact.format ?? artifact.kind} · {size(artifact.byte_size)}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function TaskOutput({ task, saver }: { task: Task; saver: Saver }) {
  const output = task.output ?? {};
  const artifacts = output.artifacts ?? [];
  const images = artifacts.filter((a) => a.kind === "image");
  const players = artifacts.filter((a) => a.kind === "video" || a.kind === "audio");
  return (
    <section class="output" aria-label="Result">
      {output.voice_id && (
        <p class="voice">
          New voice <code data-voice-id={output.voice_id}>{output.voice_id}</code>
        </p>
      )}
      {output.title && <p class="title">{output.title}</p>}
      {output.text !== undefined && <div class="text">{output.text}</div>}
      {players.map((artifact) => (
        <figure key={artifact.artifact_id}>
          <Player artifact={artifact} label={artifact.role === "preview" ? "Sample of the new voice" : `${artifact.kind} result`} />
          {artifact.role === "preview" && <figcaption>Sample of the new voice</figcaption>}
        </figure>
      ))}
      {images.length > 0 && <Gallery images={images} />}
      {artifacts.length > 0 && <Downloads artifacts={artifacts} saver={saver} />}
    </section>
  );
}
