import { INTERACTION_PATH, SCOPE_TABLE, type Scope } from "../../core/index.js";
import type { PageStyle } from "./page-style.js";

// The authorization server's pages, rendered on the server as whole documents: no script, the console's style
// inlined, every control labelled, errors announced (role="alert") and tied to the field they concern.

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(style: PageStyle, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escape(title)} — Media task service</title>
<style>${style.css}</style>
</head>
<body>
<header><h1>Media task service</h1></header>
<main class="authorize" id="main">
${body}
</main>
</body>
</html>`;
}

// Who is asking, in words a person can check: the name a client gives itself is its own claim; its id is what
// the server knows it by (for a client ID metadata document, the address that vouches for it).
export interface ClientView {
  id: string;
  name: string | undefined;
  // Where the browser goes once the person has answered.
  destination: string;
}

function clientSentence(client: ClientView): string {
  const name = client.name ? `<strong>${escape(client.name)}</strong>` : "An application";
  return `${name} <span class="hint">(client <code>${escape(client.id)}</code>)</span>`;
}

function formStart(action: string, csrf: string): string {
  return `<form method="post" action="${escape(action)}" novalidate>
<input type="hidden" name="csrf" value="${escape(csrf)}">`;
}

export interface SignInPage {
  uid: string;
  csrf: string;
  client: ClientView;
  // Why the last attempt failed; never the key that was typed.
  error?: string;
}

export function signInPage(style: PageStyle, view: SignInPage): string {
  const base = `${INTERACTION_PATH}/${view.uid}`;
  const describedBy = view.error ? "key-error key-hint" : "key-hint";
  return page(
    style,
    "Sign in",
    `<h2>Sign in to connect an application</h2>
<p>${clientSentence(view.client)} asks to use the media task service for you.</p>
${formStart(`${base}/sign-in`, view.csrf)}
${view.error ? `<p class="error error-text" id="key-error" role="alert">${escape(view.error)}</p>` : ""}
<div class="field">
<label for="api_key">API key of your account</label>
<input type="password" id="api_key" name="api_key" required autocomplete="off" autocapitalize="off" spellcheck="false"
  aria-describedby="${describedBy}"${view.error ? ' aria-invalid="true" autofocus' : ""}>
<p class="hint" id="key-hint">A key of the form sk_…, as the console and <code>npx svc key create</code> give it. The
application never sees it: it gets a token that acts for your account with at most this key's permissions, which you
choose next.</p>
</div>
<div class="actions">
<button type="submit">Sign in</button>
<button type="submit" class="secondary" formaction="${escape(`${base}/deny`)}">Cancel</button>
</div>
</form>`,
  );
}

export interface ScopeChoice {
  scope: Scope;
  // Whether the key signed in with may grant it; the others are listed, not offered.
  available: boolean;
  checked: boolean;
}

export interface ConsentPage {
  uid: string;
  csrf: string;
  client: ClientView;
  account: { keyId: string; keyName: string; tenantName: string };
  scopes: ScopeChoice[];
  error?: string;
}

function scopeWords(scope: Scope): string {
  return escape(SCOPE_TABLE.find((row) => row.scope === scope)?.allows ?? scope);
}

function scopeRow(choice: ScopeChoice): string {
  const id = `scope-${choice.scope.replace(":", "-")}`;
  return `<li><input type="checkbox" id="${id}" name="scope" value="${escape(choice.scope)}"${choice.checked ? " checked" : ""}>
<label for="${id}">${scopeWords(choice.scope)} <code>${escape(choice.scope)}</code></label></li>`;
}

// What the client asks and the key may not grant: named, never offered.
function unavailableList(choices: ScopeChoice[]): string {
  if (choices.length === 0) return "";
  return `<p class="hint" id="unavailable">It also asks for what this key may not grant:</p>
<ul class="unavailable" aria-labelledby="unavailable">
${choices.map((choice) => `<li>${scopeWords(choice.scope)} <code>${escape(choice.scope)}</code></li>`).join("\n")}
</ul>`;
}

export function consentPage(style: PageStyle, view: ConsentPage): string {
  const base = `${INTERACTION_PATH}/${view.uid}`;
  const offered = view.scopes.filter((choice) => choice.available);
  const keyName = view.account.keyName ? `“${escape(view.account.keyName)}” ` : "";
  return page(
    style,
    "Allow access",
    `<h2>Allow this application to use your account?</h2>
<p>${clientSentence(view.client)} asks for access to the account <strong>${escape(view.account.tenantName)}</strong>.
You signed in with the key ${keyName}<code>${escape(view.account.keyId)}</code>.</p>
${formStart(`${base}/consent`, view.csrf)}
${view.error ? `<p class="error error-text" id="scope-error" role="alert">${escape(view.error)}</p>` : ""}
<fieldset class="group"${view.error ? ' aria-describedby="scope-error"' : ""}>
<legend>It may</legend>
${offered.length === 0 ? '<p class="hint">It asks for nothing this key may grant.</p>' : ""}
<ul class="permissions">
${offered.map(scopeRow).join("\n")}
</ul>
<p class="hint">Untick what it should not do. Every task it creates is paid with this account's credits.</p>
</fieldset>
${unavailableList(view.scopes.filter((choice) => !choice.available))}
<p class="destination">Once you answer, your browser goes back to <code>${escape(view.client.destination)}</code>. The
application keeps access until you revoke the key or an operator ends this grant (<code>npx svc oauth grants</code>).</p>
<div class="actions">
<button type="submit" name="decision" value="allow"${offered.length === 0 ? " disabled" : ""}>Allow</button>
<button type="submit" class="secondary" formaction="${escape(`${base}/deny`)}">Deny</button>
</div>
</form>`,
  );
}

export function errorPage(style: PageStyle, title: string, message: string): string {
  return page(
    style,
    title,
    `<h2>${escape(title)}</h2>
<p class="error" role="alert">${escape(message)}</p>
<p>Start again from the application you were connecting.</p>`,
  );
}
