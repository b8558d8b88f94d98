import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteHandlerMethod } from "fastify";
import type { OperationRow } from "../../core/index.js";

// The operations the REST server answers with a handler of its own rather than through their use case: the event
// stream, the quote, signed downloads and the pages. Probes have none here: every process's face serves them
// (http-face/probes.ts).
export type HandWrittenOperationId = Exclude<OperationRow, { run: unknown } | { kind: "probe" }>["operationId"];

// What a route's request carries: its path parameters (named as in the table's path) and its query.
export interface RouteRequest {
  Params: Record<string, string>;
  Querystring: Record<string, string | undefined>;
}

export type RouteHandler = RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteRequest>;

// The method, the path and the authentication come from the operation's row; only the answer is written here.
export interface HandWrittenRoute {
  handler: RouteHandler;
  // HEAD answered by a handler of its own, instead of Fastify's (the GET's handler with its body dropped).
  head?: RouteHandler;
}

// Hand-written routes by operation id: an id the table lacks, or one it has that nobody answers, does not compile.
export type HandWrittenRoutes<Id extends HandWrittenOperationId = HandWrittenOperationId> = Record<Id, HandWrittenRoute>;
