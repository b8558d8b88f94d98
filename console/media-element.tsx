import type { AudioHTMLAttributes, VideoHTMLAttributes } from "preact";
import { useEffect, useRef } from "preact/hooks";

// Video and audio players that let go of their download when they leave the page. A player keeps its connection
// to the artifact open (its download paused, not ended) until it is garbage-collected, long after it was removed;
// a few of those take the six connections a browser opens to this origin, and the console's requests and event
// streams wait behind them. Emptying the source when the player is removed closes it at once.

function useReleasedOnRemoval<T extends HTMLMediaElement>() {
  const element = useRef<T>(null);
  useEffect(
    () => () => {
      const media = element.current;
      if (!media) return;
      media.removeAttribute("src");
      media.load();
    },
    [],
  );
  return element;
}

export function Video(props: VideoHTMLAttributes<HTMLVideoElement>) {
  const element = useReleasedOnRemoval<HTMLVideoElement>();
  return <video {...props} ref={element} />;
}

export function Audio(props: AudioHTMLAttributes<HTMLAudioElement>) {
  const element = useReleasedOnRemoval<HTMLAudioElement>();
  return <audio {...props} ref={element} />;
}
