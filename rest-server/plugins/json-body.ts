import type { FastifyInstance, FastifyRequest } from "fastify";
import { failure, invalidRequest, refuseUnboundedJsonText, refuseUnstorableText, ServiceError } from "../../core/index.js";

function headerRefusal(header: string, reason: string, message: string): ServiceError {
  return new ServiceError("invalid_request", message, { details: { errors: [{ loc: ["header", header], reason }] } });
}

// JSON is UTF-8 (RFC 8259), sent as it is: a body in another charset or compressed would otherwise be read as
// garbled text and refused for the wrong reason, or not refused at all.
function refuseOtherEncodings(request: FastifyRequest): void {
  const encoding = request.headers["content-encoding"]?.trim().toLowerCase();
  if (encoding && encoding !== "identity") {
    throw headerRefusal("Content-Encoding", "must be absent or identity", "Send the JSON body uncompressed (no Content-Encoding).");
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers["content-type"] ?? "")?.[1]?.toLowerCase();
  if (charset && charset !== "utf-8" && charset !== "utf8") {
    throw headerRefusal("Content-Type", "charset must be utf-8", "Send the JSON body as UTF-8 (`Content-Type: application/json`).");
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    throw invalidRequest([failure([], "is not UTF-8")], "The body is not UTF-8 text.");
  }
}

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
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    try {
      refuseOtherEncodings(request);
      const text = decodeUtf8(body as Buffer).trim();
      if (text === "") return done(null, undefined);
      refuseUnboundedJsonText(text);
      const parsed = parseJson(text);
      refuseUnstorableText(parsed);
      done(null, parsed);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
