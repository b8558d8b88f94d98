import type { operations } from "./generated/openapi.js";
import type { OperationId } from "./operation-route.js";

// The types of a call to any operation by its id, read from the generated document: what goes in (path
// parameters, query, JSON body) and the JSON its success answers carry.

type Parts<Id extends OperationId> = operations[Id];
type JsonOf<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type SuccessStatus = 200 | 201 | 202;
type Successes<Id extends OperationId> = SuccessStatus & keyof Parts<Id>["responses"];

export type OperationAnswer<Id extends OperationId> = { [S in Successes<Id>]: JsonOf<Parts<Id>["responses"][S]> }[Successes<Id>];

// The operations that answer JSON when they succeed: not the event stream, the signed download's bytes or the pages.
export type JsonOperationId = { [Id in OperationId]: [OperationAnswer<Id>] extends [never] ? never : Id }[OperationId];

type PathPart<Id extends OperationId> = [Parts<Id>["parameters"]["path"]] extends [never | undefined]
  ? unknown
  : { path: Parts<Id>["parameters"]["path"] };
type QueryPart<Id extends OperationId> = [Parts<Id>["parameters"]["query"]] extends [never | undefined]
  ? unknown
  : { query?: Parts<Id>["parameters"]["query"] };
type BodyPart<Id extends OperationId> = [JsonOf<NonNullable<Parts<Id>["requestBody"]>>] extends [never]
  ? unknown
  : undefined extends Parts<Id>["requestBody"]
    ? { body?: JsonOf<NonNullable<Parts<Id>["requestBody"]>> }
    : { body: JsonOf<NonNullable<Parts<Id>["requestBody"]>> };

export type OperationRequest<Id extends OperationId> = PathPart<Id> & QueryPart<Id> & BodyPart<Id> & { signal?: AbortSignal };

// The request may be left out when nothing in it is required.
export type OperationArguments<Id extends OperationId> =
  Record<never, never> extends OperationRequest<Id> ? [request?: OperationRequest<Id>] : [request: OperationRequest<Id>];
