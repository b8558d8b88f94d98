import type { FastifyInstance } from "fastify";
import { failure, invalidRequest, refuseUnstorableText } from "../../core/index.js";

// JSON bodies, where an empty body means "no body" (cancel's body is optional) and malformed JSON is 422.
export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === "") return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return done(invalidRequest([failure([], `malformed JSON: ${(error as Error).message}`)], "The body is not valid JSON."), undefined);
    }
    try {
      refuseUnstorableText(parsed);
    } catch (error) {
      return done(error as Error, undefined);
    }
    done(null, parsed);
  });
}
