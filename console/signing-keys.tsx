import { useEffect, useState } from "preact/hooks";
import { api, operationRoute } from "./api";
import { ErrorView } from "./error-view";
import { when } from "./task-words";
import type { SigningKey, SigningKeyList } from "./types";

// Callback signing keys: create, rotate with a grace period (the previous secret keeps signing beside the new
// one), retire. A secret is in the answer to create and rotate only, so it is shown once, here, until dismissed.

const DEFAULT_GRACE_SECONDS = 86_400;

export function SigningKeys() {
  const [keys, setKeys] = useState<SigningKey[]>([]);
  const [name, setName] = useState("");
  const [grace, setGrace] = useState(String(DEFAULT_GRACE_SECONDS));
  const [secret, setSecret] = useState<{ keyId: string; secret: string; action: string } | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = () => api<SigningKeyList>(operationRoute("listCallbackSigningKeys"), { query: { limit: 100 } }).then((page) => setKeys(page.data), setError);
  useEffect(() => void load(), []);

  const run = async (action: () => Promise<SigningKey>, verb: string) => {
    setError(null);
    try {
      const key = await action();
      // The list first, so the secret appears beside the key as it now stands.
      await load();
      if (key.secret) setSecret({ keyId: key.id, secret: key.secret, action: verb });
    } catch (e) {
      setError(e);
    }
  };

  const create = (event: Event) => {
    event.preventDefault();
    void run(() => api<SigningKey>(operationRoute("createCallbackSigningKey"), { body: name.trim() ? { name: name.trim() } : {} }), "created");
    setName("");
  };
  const rotate = (key: SigningKey) =>
    run(() => api<SigningKey>(operationRoute("rotateCallbackSigningKey", { key_id: key.id }), { body: grace === "" ? {} : { grace_period_seconds: Number(grace) } }), "rotated");
  const retire = (key: SigningKey) => {
    if (confirm(`Retire ${key.id} for good? New tasks cannot choose it and deliveries are no longer signed with it.`)) {
      void run(() => api<SigningKey>(operationRoute("retireCallbackSigningKey", { key_id: key.id })), "retired");
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <h3 id="keys-title">Callback signing keys</h3>
      <form class="inline-form" onSubmit={create} noValidate>
        <div class="field">
          <label for="key-name">Name of a new key</label>
          <input id="key-name" type="text" maxLength={100} value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
        </div>
        <button type="submit">Create key</button>
      </form>
      <div class="field">
        <label for="key-grace">Grace period when rotating (seconds)</label>
        <input id="key-grace" type="number" min={0} step={1} value={grace} onInput={(e) => setGrace((e.currentTarget as HTMLInputElement).value)} />
        <p class="hint">How long the previous secret keeps signing beside the new one.</p>
      </div>
      {secret && (
        <div class="secret" role="alert">
          <p>
            Key <code>{secret.keyId}</code> {secret.action}. Its secret is shown this once; store it now:
          </p>
          <p>
            <code class="mono" data-secret={secret.keyId}>
              {secret.secret}
            </code>
          </p>
          <button type="button" class="secondary" onClick={() => setSecret(null)}>
            I have stored it
          </button>
        </div>
      )}
      <ErrorView error={error} />
      <table class="cards">
          <caption>Your keys, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Rotated</th>
              <th scope="col">Previous secret signs until</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr data-key-id={key.id}>
                <td data-label="Key">
                  <code>{key.id}</code>
                </td>
                <td data-label="Name">{key.name}</td>
                <td data-label="Status">{key.status}</td>
                <td data-label="Rotated">{key.rotated_at ? when(key.rotated_at) : "never"}</td>
                <td data-label="Previous secret signs until">{key.previous_secret_expires_at ? when(key.previous_secret_expires_at) : "—"}</td>
                <td data-label="Actions">
                  {key.status === "active" && (
                    <>
                      <button type="button" class="secondary" onClick={() => rotate(key)} aria-label={`Rotate ${key.id}`}>
                        Rotate
                      </button>{" "}
                      <button type="button" class="secondary danger" onClick={() => retire(key)} aria-label={`Retire ${key.id}`}>
                        Retire
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
    </section>
  );
}
