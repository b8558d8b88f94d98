import { useEffect, useState } from "preact/hooks";
import { CAPABILITY_PATHS } from "../client/src/generated/capabilities.js";
import { api, createRoute, operationRoute, ServiceError } from "./api";
import { newIdempotencyKey } from "./idempotency-key";
import { credits } from "./prices";
import { followTask } from "./task-events";
import type { Artifact, Quote, Task, Voice } from "./types";
import { Audio } from "./media-element";

// How a voice sounds. A cloned voice has its own: the short synthesis that activated it, kept as its clone task's
// `preview` artifact. The service publishes no recordings of its preset voices, so a preset's sample is one short
// sentence spoken with it, a speech task like any other (its price quoted on the button, its task in History),
// made once per voice and page load.

const samples = new Map<string, Artifact>();

const sentence = (voice: Voice) => `Hello, I am ${voice.name}. This is how I sound.`;

async function clonePreview(voice: Voice): Promise<Artifact | undefined> {
  if (!voice.task_id) return undefined;
  const task = await api<Task>(operationRoute("getTask", { task_id: voice.task_id }));
  return task.output?.artifacts.find((a) => a.role === "preview");
}

async function speak(voice: Voice): Promise<Artifact> {
  const body = { voice: voice.voice_id, input: sentence(voice), metadata: { console: "voice sample" } };
  const created = await api<Task>(createRoute(CAPABILITY_PATHS.text_to_speech), { body, idempotencyKey: newIdempotencyKey() });
  const task = await followTask(created.task_id, () => undefined, new AbortController().signal);
  const audio = task.output?.artifacts[0];
  if (task.status !== "succeeded" || !audio) throw new Error(task.error?.message ?? `the sample task ended ${task.status}`);
  return audio;
}

export function VoiceSample({ voice }: { voice: Voice }) {
  const [sample, setSample] = useState<Artifact | null>(samples.get(voice.voice_id) ?? null);
  const [price, setPrice] = useState<string | null>(null);
  const [state, setState] = useState<"idle" | "speaking" | string>("idle");

  useEffect(() => {
    setSample(samples.get(voice.voice_id) ?? null);
    setState("idle");
    setPrice(null);
    if (samples.has(voice.voice_id) || voice.type === "cloned") return;
    const abort = new AbortController();
    api<Quote>(operationRoute("createQuote"), { body: { capability: "text_to_speech", voice: voice.voice_id, input: sentence(voice) }, signal: abort.signal }).then(
      (quote) => setPrice(quote.price_credits),
      () => undefined,
    );
    return () => abort.abort();
  }, [voice.voice_id]);

  const play = async () => {
    setState("speaking");
    try {
      const audio = (voice.type === "cloned" ? await clonePreview(voice) : undefined) ?? (await speak(voice));
      samples.set(voice.voice_id, audio);
      setSample(audio);
      setState("idle");
    } catch (error) {
      setState(error instanceof ServiceError ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error));
    }
  };

  if (sample) return <Audio class="voice-sample" controls autoplay src={sample.url} aria-label={`${voice.name}, a sample`} />;
  return (
    <div class="voice-sample">
      <button type="button" class="secondary" onClick={play} disabled={state === "speaking"}>
        {state === "speaking" ? "Fetching the sample…" : `▶ Hear ${voice.name}${price ? ` (${credits(price)} credits)` : ""}`}
      </button>
      {state !== "idle" && state !== "speaking" && (
        <p class="error-text" role="alert">
          {state}
        </p>
      )}
    </div>
  );
}
