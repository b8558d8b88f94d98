import type { KoaContextWithOIDC } from "oidc-provider";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

// A sign-in asked for by a client this server does not know (a client id cached by the host from before a database
// reset, or from when metadata documents were offered) is normally refused on a page in the browser, never by a
// redirect, since a redirect URI is trusted only from a known client (RFC 6749 §4.1.2.1). A host on the person's
// machine then waits on its loopback listener until it gives up (Claude Code: five minutes), and keeps the id. When
// the redirect URI is such a listener (plain HTTP to a loopback address with a port, RFC 8252 §7.3), the error is
// sent there instead: it reaches only the person's own machine, carries no code, and tells the host at once that
// its client id is invalid, which makes it drop the id and register on the next sign-in (Claude Code does on any
// "OAuth error" when it holds no tokens). Returns where to send the browser, or null to show the page.
export function loopbackErrorRedirect(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }, issuer: string): string | null {
  if (ctx.oidc?.route !== "authorization" || out.error !== "invalid_client") return null;
  // The parameters as read for the request, or as sent when it failed before they were read.
  const params = (ctx.oidc.params ?? ctx.query) as { redirect_uri?: unknown; state?: unknown } | undefined;
  const target = typeof params?.redirect_uri === "string" ? URL.parse(params.redirect_uri) : null;
  if (!target || target.protocol !== "http:" || !LOOPBACK_HOSTS.has(target.hostname) || target.port === "" || target.username || target.password) return null;
  target.searchParams.set("error", out.error);
  if (out.error_description) target.searchParams.set("error_description", out.error_description);
  if (typeof params?.state === "string") target.searchParams.set("state", params.state);
  target.searchParams.set("iss", issuer);
  return target.href;
}
