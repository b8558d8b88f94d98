import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteHandlerMethod } from "fastify";
import type { OperationRow, PathParameters } from "../../core/index.js";

// The operations the REST server answers with a handler of its own rather than through their use case: the event
// stream, the quote, signed downloads and the pages. Probes have none here: every process's face serves them
// (http-face/probes.ts).
export type HandWrittenOperationId = Exclude<OperationRow, { run: unknown } | { kind: "probe" }>["operationId"];

// What a route's request carries: its path parameters (named as in the table's path) and its query.
export interface RouteRequest<Params = Record<string, string>> {
  Params: Params;
  Querystring: Record<string, string | undefined>;
}

export type RouteHandler<Params = Record<string, string>> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteRequest<Params>
>;

// The method, the path and the authentication come from the operation's row; only the answer is written here.
export interface HandWrittenRoute<Params = Record<string, string>> {
  handler: RouteHandler<Params>;
  // HEAD answered by a handler of its own, instead of Fastify's (the GET's handler with its body dropped).
  head?: RouteHandler<Params>;
}

// Hand-written routes by operation id, each handed the path parameters of its row's path: an id the table lacks, or
// one it has that nobody answers, does not compile, nor does a handler reading a parameter its path does not name.
export type HandWrittenRoutes<Id extends HandWrittenOperationId = HandWrittenOperationId> = {
  [K in Id]: HandWrittenRoute<PathParameters<Extract<OperationRow, { operationId: K }>["path"]>>;
};

// The handler of one hand-written route, typed for its row's path.
export type HandWrittenHandler<Id extends HandWrittenOperationId> = HandWrittenRoutes<Id>[Id]["handler"];
