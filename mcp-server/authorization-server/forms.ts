import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { SigningKey } from "../../core/index.js";

// The sign-in and consent forms: a small urlencoded body, and a guard against cross-site posts. oidc-provider
// already ties each page to the browser that opened it (a signed, SameSite=Lax cookie holding the interaction's
// id); on top of that every form carries a token only this server can compute for that interaction, and a
// request whose Origin is another site's is refused.

const FORM_MAX_BYTES = 8 * 1024;

export class FormRefused extends Error {}

export async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers["content-type"] ?? "")) throw new FormRefused("not a form submission");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_MAX_BYTES) throw new FormRefused("the form is larger than this page's forms can be");
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export interface FormGuard {
  token(uid: string): string;
  check(request: IncomingMessage, uid: string, form: URLSearchParams): void;
}

export function formGuard(signingKey: SigningKey, issuer: string): FormGuard {
  const key = Buffer.from(hkdfSync("sha256", Buffer.from(signingKey.d, "base64url"), "", "svc oauth forms", 32));
  const origin = new URL(issuer).origin;
  const token = (uid: string) => createHmac("sha256", key).update(uid).digest("base64url");
  return {
    token,
    check(request, uid, form) {
      const from = request.headers.origin;
      if (from !== undefined && from !== origin) throw new FormRefused(`a form of this page was sent from ${from}`);
      const expected = Buffer.from(token(uid));
      const given = Buffer.from(form.get("csrf") ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new FormRefused("the form's token does not match this page");
    },
  };
}
