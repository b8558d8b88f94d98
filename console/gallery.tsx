import { useState } from "preact/hooks";
import { ArtifactActions } from "./artifact-actions";
import { galleryClass } from "./gallery-grid";
import { Lightbox } from "./lightbox";
import type { Artifact } from "./types";

// A task's images, all in sight at once: a grid sized to the window (gallery-grid.ts; 2×2 for four, on a laptop
// and on a phone), each picture whole (never cropped), opening in the lightbox on a click. A lone image keeps its
// actions under it; several keep theirs in the lightbox, so the grid stays small enough to see whole.

export function Gallery({ images, label }: { images: Artifact[]; label(artifact: Artifact): string }) {
  const [open, setOpen] = useState<number | null>(null);
  const several = images.length > 1;
  return (
    <>
      <div class={galleryClass(images.length)}>
        {images.map((image, i) => (
          <figure class="artifact image-artifact" data-artifact={image.artifact_id}>
            <button type="button" class="enlarge" onClick={() => setOpen(i)} aria-label={`Enlarge image ${several ? `${i + 1} of ${images.length}` : ""}`.trim()}>
              <img src={image.url} width={image.width} height={image.height} alt={`Result: ${label(image)}`} />
            </button>
            <figcaption>
              <span class="caption">{several ? `${i + 1} of ${images.length} · ${image.width}×${image.height}` : label(image)}</span>
              {!several && <ArtifactActions artifact={image} />}
            </figcaption>
          </figure>
        ))}
      </div>
      {several && <p class="hint gallery-hint">Click an image to see it larger, at 100 %, download it or use it as an input.</p>}
      {open !== null && <Lightbox images={images} index={open} onIndex={setOpen} onClose={() => setOpen(null)} />}
    </>
  );
}
