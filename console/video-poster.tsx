import { useEffect, useRef } from "preact/hooks";

// A video's first frame as a still, for lists. A <video preload="metadata"> per row would hold one of the six
// connections a browser opens to this origin for as long as it stays on the page (the player keeps its download
// paused, not closed), and a few of them starve the page's own requests and event streams. So each frame is taken
// once, by one video element at a time that is let go as soon as it has drawn it, and kept for the page load.

const frames = new Map<string, Promise<ImageBitmap>>();
let queue: Promise<unknown> = Promise.resolve();

function grab(url: string): Promise<ImageBitmap> {
  return new Promise((resolve, reject) => {
    const video = document.createElement("video");
    const release = () => {
      video.removeAttribute("src");
      video.load();
    };
    video.muted = true;
    video.preload = "auto";
    video.addEventListener("loadeddata", () => createImageBitmap(video).then(resolve, reject).finally(release), { once: true });
    video.addEventListener("error", () => (release(), reject(new Error("the video could not be read"))), { once: true });
    video.src = `${url}#t=0.1`;
  });
}

// One at a time, whoever asks.
function frameOf(artifactId: string, url: string): Promise<ImageBitmap> {
  let frame = frames.get(artifactId);
  if (!frame) {
    frame = queue.then(() => grab(url));
    queue = frame.catch(() => undefined);
    frames.set(artifactId, frame);
  }
  return frame;
}

export function VideoPoster({ artifactId, url, label }: { artifactId: string; url: string; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let shown = true;
    frameOf(artifactId, url).then(
      (frame) => {
        const target = canvas.current;
        if (!shown || !target) return;
        target.width = frame.width;
        target.height = frame.height;
        target.getContext("2d")?.drawImage(frame, 0, 0);
      },
      () => undefined,
    );
    return () => {
      shown = false;
    };
  }, [artifactId]);
  return <canvas class="thumb" ref={canvas} role="img" aria-label={label} />;
}
