import type { FastifyInstance } from "fastify";
import { failure, invalidRequest, refuseUnboundedJsonText, refuseUnstorableText } from "../../core/index.js";

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidRequest([failure([], `malformed JSON: ${(error as Error).message}`)], "The body is not valid JSON.");
  }
}

// JSON bodies, where an empty body means "no body" (cancel's body is optional) and malformed JSON is 422. The
// shape bounds are checked on the text, before JSON.parse spends time building a hostile value.
export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === "") return done(null, undefined);
    try {
      refuseUnboundedJsonText(text);
      const parsed = parseJson(text);
      refuseUnstorableText(parsed);
      done(null, parsed);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
