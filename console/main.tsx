import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { AccountPage } from "./account-page";
import { api, operationRoute, ServiceError } from "./api";
import { ErrorView } from "./error-view";
import { HistoryPage } from "./history-page";
import { forgetKey, storedKey, storeKey } from "./session-key";
import { TryPage } from "./try-page";

// The console's shell: the API key gate, then three pages by URL hash (#/try/<capability>, #/history and
// #/history/<task id>, #/account), so any view can be bookmarked and the server only ever serves one page.

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener("hashchange", changed);
    return () => removeEventListener("hashchange", changed);
  }, []);
  return hash;
}

function KeyGate({ onKey }: { onKey(): void }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    storeKey(key.trim());
    try {
      // A read of the balance proves the key; 403 is a valid key limited to other areas, still a key to use.
      await api(operationRoute("getCredits"));
      onKey();
    } catch (e) {
      if (e instanceof ServiceError && e.status === 403) return onKey();
      forgetKey();
      setError(e);
    }
  };
  return (
    <main id="main" class="gate">
      <h1>Media task service</h1>
      <form onSubmit={submit} noValidate>
        <div class="field">
          <label for="api-key">API key</label>
          <input id="api-key" type="password" autocomplete="off" spellcheck={false} value={key} onInput={(e) => setKey((e.currentTarget as HTMLInputElement).value)} required />
          <p class="hint">
            Kept in this browser tab only (session storage) and sent only to this service. <code>npm start</code> prints a development key and saves it in
            .data/dev-api-key.
          </p>
        </div>
        <button type="submit">Open the console</button>
      </form>
      <ErrorView error={error} />
      <p>
        <a href={operationRoute("getApiReference").path}>API reference</a>
      </p>
    </main>
  );
}

const PAGES = [
  { hash: "#/try", label: "Try" },
  { hash: "#/history", label: "History" },
  { hash: "#/account", label: "Account" },
];

function Console({ onForget }: { onForget(): void }) {
  const hash = useHash();
  const [, page = "try", detail] = hash.split("/");
  // A page opened from the navigation takes the focus, so keyboard and screen-reader users start on it; the page
  // the console opens on keeps it where the browser put it.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) document.getElementById("main")?.focus();
    opened.current = true;
  }, [page]);
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById("main")?.focus())}>
        Skip to content
      </a>
      <header>
        <h1>Media task service</h1>
        <nav aria-label="Console">
          <ul>
            {PAGES.map((p) => (
              <li>
                <a href={p.hash} aria-current={p.hash === `#/${page}` ? "page" : undefined}>
                  {p.label}
                </a>
              </li>
            ))}
            <li>
              <a href={operationRoute("getApiReference").path}>API reference</a>
            </li>
            <li>
              <button type="button" class="link" onClick={onForget}>
                Forget key
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {page === "history" ? <HistoryPage openTaskId={detail} /> : page === "account" ? <AccountPage /> : <TryPage key={detail ?? ""} initialCapability={detail} />}
      </main>
    </>
  );
}

function App() {
  const [hasKey, setHasKey] = useState(storedKey() !== null);
  if (!hasKey) return <KeyGate onKey={() => setHasKey(true)} />;
  return (
    <Console
      onForget={() => {
        forgetKey();
        setHasKey(false);
      }}
    />
  );
}

render(<App />, document.getElementById("app")!);
