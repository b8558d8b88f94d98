import { useEffect, useState } from "preact/hooks";
import { CAPABILITY_PATHS } from "../client/src/generated/capabilities.js";
import { api, createRoute, fieldErrors, operationRoute, ServiceError } from "./api";
import { ErrorView } from "./error-view";
import { newIdempotencyKey } from "./idempotency-key";
import { MediaInput } from "./media-input";
import { TaskView } from "./task-view";
import type { Task, Voice, VoiceList } from "./types";

// Voices: presets and cloned voices (GET /v1/voices, paged), deleting a cloned one, and cloning from an uploaded
// sample (POST /v1/voices, a task whose output carries the new voice_id).

function CloneForm({ onCloned }: { onCloned(): void }) {
  const [displayName, setDisplayName] = useState("");
  const [sample, setSample] = useState<unknown>(undefined);
  const [consent, setConsent] = useState(false);
  const [task, setTask] = useState<Task | null>(null);
  const [error, setError] = useState<unknown>(null);
  const fields = error instanceof ServiceError ? fieldErrors(error) : new Map<string, string>();

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const body = { display_name: displayName, sample, ...(consent ? { consent_attested: true } : {}) };
      setTask(await api<Task>(createRoute(CAPABILITY_PATHS.voice_clone), { body, idempotencyKey: newIdempotencyKey() }));
      onCloned();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <form class="clone" onSubmit={submit} noValidate aria-labelledby="clone-title">
      <h4 id="clone-title">Clone a voice</h4>
      <div class="field">
        <label for="clone-name">Display name (required)</label>
        <input id="clone-name" type="text" value={displayName} onInput={(e) => setDisplayName((e.currentTarget as HTMLInputElement).value)} aria-invalid={fields.has("/display_name")} aria-describedby="clone-name-error" />
        {fields.has("/display_name") && <p class="error-text" id="clone-name-error">{fields.get("/display_name")}</p>}
      </div>
      <div class="field">
        <label for="clone-sample">Sample: one clean speaker, about 10 seconds to 5 minutes (required)</label>
        <MediaInput id="clone-sample" name="sample" value={sample} onChange={setSample} describedBy="clone-sample-error" invalid={[...fields.keys()].some((p) => p.startsWith("/sample"))} />
        {[...fields].filter(([p]) => p.startsWith("/sample")).map(([, message]) => (
          <p class="error-text" id="clone-sample-error">{message}</p>
        ))}
      </div>
      <div class="field checkbox-field">
        <input id="clone-consent" type="checkbox" checked={consent} onChange={(e) => setConsent((e.currentTarget as HTMLInputElement).checked)} />
        <label for="clone-consent">I hold the rights to this voice</label>
      </div>
      <button type="submit">Clone voice</button>
      <ErrorView error={error} />
      {task && <TaskView initial={task} />}
    </form>
  );
}

export function Voices() {
  const [voices, setVoices] = useState<Voice[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = async (after: string | null) => {
    try {
      const page = await api<VoiceList>(operationRoute("listVoices"), { query: { limit: 100, cursor: after ?? undefined } });
      setVoices((current) => (after ? [...current, ...page.data] : page.data));
      setCursor(page.has_more ? page.next_cursor : null);
    } catch (e) {
      setError(e);
    }
  };
  useEffect(() => void load(null), []);

  const remove = async (voice: Voice) => {
    if (!confirm(`Delete the voice ${voice.name} (${voice.voice_id})? Speech can no longer use it.`)) return;
    setError(null);
    try {
      await api(operationRoute("deleteVoice", { voice_id: voice.voice_id }));
      await load(null);
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section aria-labelledby="voices-title">
      <h3 id="voices-title">Voices</h3>
      <ErrorView error={error} />
        <table class="cards">
          <caption>Preset and cloned voices</caption>
          <thead>
            <tr>
              <th scope="col">Voice id</th>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Language</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {voices.map((voice) => (
              <tr>
                <td data-label="Voice id">
                  <code>{voice.voice_id}</code>
                </td>
                <td data-label="Name">{voice.name}</td>
                <td data-label="Type">{voice.type}</td>
                <td data-label="Language">{voice.language ?? ""}</td>
                <td data-label="Status">{voice.status}</td>
                <td data-label="Actions">
                  {voice.type === "cloned" && (
                    <button type="button" class="secondary danger" onClick={() => remove(voice)} aria-label={`Delete ${voice.voice_id}`}>
                      Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      {cursor && (
        <button type="button" class="secondary" onClick={() => load(cursor)}>
          More voices
        </button>
      )}
      <CloneForm onCloned={() => void load(null)} />
    </section>
  );
}
