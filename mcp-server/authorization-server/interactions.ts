import type { ServerResponse } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { default as Provider } from "oidc-provider";
import {
  countFailedSignIn,
  findKeyAccount,
  INTERACTION_PATH,
  isScope,
  mcpResourceUrl,
  oauthGrants,
  ServiceError,
  requestSource,
  signInThrottle,
  signInWithApiKey,
  type Core,
  type KeyAccount,
  type Scope,
  type SignInThrottle,
} from "../../core/index.js";
import { requestLog } from "../../http-face/request-log.js";
import { formGuard, FormRefused, readForm } from "./forms.js";
import { pageHeaders } from "./page-headers.js";
import type { PageStyle } from "./page-style.js";
import { consentPage, errorPage, signInPage, type ClientView, type ScopeChoice } from "./pages.js";

type Interaction = Awaited<ReturnType<Provider["interactionDetails"]>>;

// A form posted to a step the authorization is no longer at (answered already, or in another tab).
class StepGone extends Error {}

// oidc-provider's refusal of an interaction whose cookie or record is gone (expired, finished, another browser).
const isSessionNotFound = (error: unknown) => error instanceof Error && error.name === "SessionNotFound";

// Why a sign-in failed, in words for the person; never the key they typed.
function signInRefusal(error: ServiceError): string {
  switch (error.code) {
    case "unauthorized":
      return "That is not an API key: keys read sk_, the region, an underscore and 32 letters and digits.";
    case "invalid_api_key":
      return "That API key is unknown or has been revoked.";
    case "tenant_disabled":
      return "The account this API key belongs to is suspended.";
    default:
      return error.message;
  }
}

// Why a sign-in was refused unchecked, and when to try again: a person's own key, if it begins otherwise than the
// guesses, is not held back by the prefix's count.
function throttledSignIn(throttle: SignInThrottle): string {
  const when = `try again in ${throttle.retryAfterSeconds} second${throttle.retryAfterSeconds === 1 ? "" : "s"}`;
  return throttle.scope === "prefix"
    ? `Too many failed sign-ins from your address with keys beginning like this one; ${when}.`
    : `Too many failed sign-ins from your address; ${when}.`;
}

// The scopes the client asked for that mean something here, in the order of its request.
function requestedScopes(interaction: Interaction): Scope[] {
  const scope = typeof interaction.params.scope === "string" ? interaction.params.scope : "";
  return [...new Set(scope.split(" ").filter(isScope))];
}

// The sign-in and consent steps of an authorization (oidc-provider's interactions): GET shows the step the
// authorization is at, the forms post to sign-in, consent or deny, and each answer sends the browser back to the
// authorization endpoint (oidc-provider's interactionFinished), which continues or ends at the client's redirect URI.
export function registerInteractionRoutes(app: FastifyInstance, core: Core, provider: Provider, style: PageStyle): void {
  const signingKey = core.config.oauth.signingKey;
  if (!signingKey) throw new Error("the authorization pages need OAUTH_SIGNING_KEY");
  const guard = formGuard(signingKey, core.config.mcp.publicUrl);
  const resource = mcpResourceUrl(core.config);

  function send(response: ServerResponse, status: number, html: string): void {
    response.writeHead(status, pageHeaders(style)).end(html);
  }

  async function clientView(interaction: Interaction): Promise<ClientView> {
    const clientId = String(interaction.params.client_id);
    const client = await provider.Client.find(clientId);
    const redirect = new URL(String(interaction.params.redirect_uri));
    return { id: clientId, name: client?.clientName, destination: `${redirect.origin}${redirect.pathname}` };
  }

  function consentView(interaction: Interaction, account: KeyAccount, client: ClientView, checked: readonly Scope[], error?: string) {
    const scopes: ScopeChoice[] = requestedScopes(interaction).map((scope) => ({
      scope,
      available: account.scopes.includes(scope),
      checked: checked.includes(scope),
    }));
    return consentPage(style, { uid: interaction.uid, csrf: guard.token(interaction.uid), client, account, scopes, ...(error ? { error } : {}) });
  }

  // Each step runs with the raw request and response, which oidc-provider reads its cookies from and redirects
  // through; a step whose interaction is gone (expired, finished, opened in another browser) says so.
  function step(method: "GET" | "POST", suffix: string, run: (request: FastifyRequest, response: ServerResponse, uid: string) => Promise<void>) {
    app.route({
      method,
      url: `${INTERACTION_PATH}/:uid${suffix}`,
      onRequest: async (request, reply) => {
        reply.hijack();
        const response = reply.raw;
        response.setHeader("x-request-id", request.id);
        const { uid } = request.params as { uid: string };
        try {
          await run(request, response, uid);
        } catch (error) {
          if (error instanceof StepGone || isSessionNotFound(error)) {
            return send(response, 400, errorPage(style, "This sign-in has ended", "It expired, was already answered, or was opened in another browser."));
          }
          if (error instanceof FormRefused) {
            requestLog(request).warn({ reason: error.message }, "oauth form refused");
            return send(response, 403, errorPage(style, "This form was refused", "It did not come from this page."));
          }
          requestLog(request).error({ err: error }, "oauth interaction failed");
          if (!response.headersSent) send(response, 500, errorPage(style, "Something went wrong on our side", "Try again in a moment."));
          else response.end();
        }
      },
      handler: async () => undefined,
    });
  }

  step("GET", "", async (request, response) => {
    const interaction = await provider.interactionDetails(request.raw, response);
    const client = await clientView(interaction);
    if (interaction.prompt.name === "login") {
      return send(response, 200, signInPage(style, { uid: interaction.uid, csrf: guard.token(interaction.uid), client }));
    }
    const account = await findKeyAccount(core.db, String(interaction.session?.accountId));
    if (!account) return send(response, 400, errorPage(style, "This sign-in has ended", "The API key signed in with can no longer be used."));
    send(response, 200, consentView(interaction, account, client, requestedScopes(interaction)));
  });

  step("POST", "/sign-in", async (request, response, uid) => {
    const form = await readForm(request.raw);
    guard.check(request.raw, uid, form);
    const interaction = await provider.interactionDetails(request.raw, response);
    if (interaction.uid !== uid || interaction.prompt.name !== "login") throw new StepGone("not at the sign-in step");
    const client = await clientView(interaction);
    const again = (status: number, error: string) => send(response, status, signInPage(style, { uid, csrf: guard.token(uid), client, error }));
    const key = (form.get("api_key") ?? "").trim();
    const source = requestSource(request.ip);
    const throttle = await signInThrottle(core.db, source, key);
    if (throttle) {
      requestLog(request).warn({ address: request.ip, scope: throttle.scope }, "oauth sign-in failures over the limit");
      response.setHeader("retry-after", String(throttle.retryAfterSeconds));
      return again(429, throttledSignIn(throttle));
    }
    let account: KeyAccount;
    try {
      account = await signInWithApiKey(core, key);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      await countFailedSignIn(core.db, source, key);
      requestLog(request).info({ code: error.code }, "oauth sign-in refused");
      return again(401, signInRefusal(error));
    }
    requestLog(request).info({ tenant_id: account.tenantId, key_id: account.keyId }, "oauth sign-in");
    // A session for this browser tab only: consent follows at once, and nothing stays signed in afterwards.
    await provider.interactionFinished(request.raw, response, { login: { accountId: account.keyId, remember: false } }, { mergeWithLastSubmission: false });
  });

  step("POST", "/consent", async (request, response, uid) => {
    const form = await readForm(request.raw);
    guard.check(request.raw, uid, form);
    const interaction = await provider.interactionDetails(request.raw, response);
    if (interaction.uid !== uid || interaction.prompt.name !== "consent") throw new StepGone("not at the consent step");
    const account = await findKeyAccount(core.db, String(interaction.session?.accountId));
    if (!account) return send(response, 400, errorPage(style, "This sign-in has ended", "The API key signed in with can no longer be used."));
    const requested = requestedScopes(interaction);
    const chosen = form.getAll("scope").filter((scope): scope is Scope => isScope(scope) && requested.includes(scope) && account.scopes.includes(scope));
    if (chosen.length === 0) {
      const client = await clientView(interaction);
      return send(response, 400, consentView(interaction, account, client, [], "Tick at least one thing it may do, or choose Deny."));
    }
    const grant = new provider.Grant({ accountId: account.keyId, clientId: String(interaction.params.client_id) });
    grant.addResourceScope(resource, chosen.join(" "));
    const refused = requested.filter((scope) => !chosen.includes(scope));
    if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(" "));
    // The MCP scopes are this server's scopes as well as the resource's (core/oauth/server/authorization-server.ts):
    // the same answer for both. offline_access (and openid, if asked) are no permission over the account.
    const oidcScopes = (interaction.prompt.details as { missingOIDCScope?: string[] }).missingOIDCScope ?? [];
    const granted = oidcScopes.filter((scope) => !isScope(scope) || chosen.includes(scope));
    const rejected = oidcScopes.filter((scope) => isScope(scope) && !chosen.includes(scope));
    if (granted.length > 0) grant.addOIDCScope(granted.join(" "));
    if (rejected.length > 0) grant.rejectOIDCScope(rejected.join(" "));
    const grantId = await grant.save();
    // A new consent of the same browser to the same client replaces the earlier one and what it issued.
    if (interaction.grantId && interaction.grantId !== grantId) await oauthGrants.revokeGrants(core.db, [interaction.grantId]);
    requestLog(request).info({ tenant_id: account.tenantId, key_id: account.keyId, grant_id: grantId, scopes: chosen }, "oauth consent");
    await provider.interactionFinished(request.raw, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
  });

  step("POST", "/deny", async (request, response, uid) => {
    const form = await readForm(request.raw);
    guard.check(request.raw, uid, form);
    await provider.interactionDetails(request.raw, response);
    requestLog(request).info({}, "oauth authorization denied");
    await provider.interactionFinished(
      request.raw,
      response,
      { error: "access_denied", error_description: "The person declined to authorize this application." },
      { mergeWithLastSubmission: false },
    );
  });
}
