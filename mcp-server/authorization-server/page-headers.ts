import type { PageStyle } from "./page-style.js";

// Every page of the authorization server: never cached, never framed (a consent page inside another site is
// how a click is stolen), no script at all, only its own inline style. No form-action: a consent's redirect chain
// ends at the client's redirect URI, which browsers hold to form-action too. Referrers only to this origin: the
// forms' posts then carry it in Origin (no-referrer would make it "null"), and no other site learns a page's URL.
export function pageHeaders(style: PageStyle): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": `default-src 'none'; style-src ${style.cspSource}; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
  };
}
