import { useEffect, useRef, useState } from "preact/hooks";
import { ArtifactActions } from "./artifact-actions";
import type { Artifact } from "./types";

// One of a task's images over the whole window (a modal dialog: the page behind is inert, Escape closes it, the
// focus comes back to the picture it was opened from): fitted to the window, or at 100 % (one image pixel per CSS
// pixel, scrolled within the window) by the zoom button or a click on the picture; the task's other images one
// arrow key (or button) away, going round at the ends; and what can be done with the image: download it, copy its
// link, use it as another task's input.

interface LightboxProps {
  images: Artifact[];
  index: number;
  onIndex(index: number): void;
  onClose(): void;
}

export function Lightbox({ images, index, onIndex, onClose }: LightboxProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [actualSize, setActualSize] = useState(false);
  const image = images[index]!;
  const several = images.length > 1;

  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    // Leaving the page (a "use as input" opens another form) takes the dialog with it.
    return () => element?.close();
  }, []);

  const move = (step: number) => {
    onIndex((index + step + images.length) % images.length);
    setActualSize(false);
  };
  const keys = (event: KeyboardEvent) => {
    // Arrows inside the open "Use as input" menu or a text field are theirs.
    if ((event.target as HTMLElement).closest("input, details[open]")) return;
    if (event.key === "ArrowLeft" && several) move(-1);
    else if (event.key === "ArrowRight" && several) move(1);
    else return;
    event.preventDefault();
  };
  const position = several ? `${index + 1} of ${images.length}` : "";

  return (
    <dialog ref={dialog} class="lightbox" aria-label={`Image ${position}`.trim()} onClose={onClose} onKeyDown={keys}>
      <div class="lightbox-bar">
        <span class="lightbox-position" aria-live="polite">
          {[position, `${image.width}×${image.height}`, image.format].filter(Boolean).join(" · ")}
        </span>
        <span class="lightbox-controls">
          {several && (
            <>
              <button type="button" class="secondary" onClick={() => move(-1)} aria-label="Previous image" title="Previous image (←)">
                ←
              </button>
              <button type="button" class="secondary" onClick={() => move(1)} aria-label="Next image" title="Next image (→)">
                →
              </button>
            </>
          )}
          <button type="button" class="secondary" onClick={() => setActualSize(!actualSize)}>
            {actualSize ? "Fit to window" : "100 %"}
          </button>
          <button type="button" class="secondary" onClick={() => dialog.current?.close()} aria-label="Close">
            ✕ Close
          </button>
        </span>
      </div>
      <div class={`lightbox-frame${actualSize ? " actual-size" : ""}`}>
        <img
          key={image.artifact_id}
          src={image.url}
          width={image.width}
          height={image.height}
          alt={several ? `Result ${position}, ${image.width}×${image.height}` : `Result, ${image.width}×${image.height}`}
          data-artifact={image.artifact_id}
          onClick={() => setActualSize(!actualSize)}
        />
      </div>
      <div class="lightbox-actions">
        <ArtifactActions artifact={image} />
      </div>
    </dialog>
  );
}
