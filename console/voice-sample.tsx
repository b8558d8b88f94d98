import { useEffect, useState } from "preact/hooks";
import { api, operationRoute, ServiceError } from "./api";
import type { Task, Voice } from "./types";
import { Audio } from "./media-element";

// How a voice sounds, free. A preset voice has a stock sample the service made once and keeps for everyone
// (GET /v1/voices/{voice_id}/sample: no task, no charge, nothing in History). A cloned voice has its own: the short
// synthesis that activated it, kept as its clone task's `preview` artifact (part of the clone's price).

const clonePreviews = new Map<string, string>();

async function clonePreview(voice: Voice): Promise<string> {
  const task = voice.task_id ? await api<Task>(operationRoute("getTask", { task_id: voice.task_id })) : null;
  const preview = task?.output?.artifacts.find((a) => a.role === "preview");
  if (!preview) throw new Error(`${voice.name} has no preview to play`);
  return preview.url;
}

export function VoiceSample({ voice }: { voice: Voice }) {
  const [source, setSource] = useState<string | null>(null);
  const [state, setState] = useState<"idle" | "fetching" | string>("idle");

  useEffect(() => {
    setSource(null);
    setState("idle");
  }, [voice.voice_id]);

  const play = async () => {
    if (voice.type !== "cloned") {
      setSource(operationRoute("getVoiceSample", { voice_id: voice.voice_id }).path);
      return;
    }
    setState("fetching");
    try {
      const url = clonePreviews.get(voice.voice_id) ?? (await clonePreview(voice));
      clonePreviews.set(voice.voice_id, url);
      setSource(url);
      setState("idle");
    } catch (error) {
      setState(error instanceof ServiceError ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error));
    }
  };

  if (source) return <Audio class="voice-sample" controls autoplay src={source} aria-label={`${voice.name}, a sample`} />;
  return (
    <div class="voice-sample">
      <button type="button" class="secondary" onClick={play} disabled={state === "fetching"}>
        {state === "fetching" ? "Fetching the sample…" : `▶ Hear ${voice.name}`}
      </button>
      {state !== "idle" && state !== "fetching" && (
        <p class="error-text" role="alert">
          {state}
        </p>
      )}
    </div>
  );
}
