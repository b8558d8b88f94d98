import { OPERATION_ROUTES } from "./generated/operation-routes.js";

export type OperationId = keyof typeof OPERATION_ROUTES;

// The names between braces in a path template: /v1/tasks/{task_id}/cancel → "task_id".
type PathParameters<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParameters<Rest> : never;

type Route<Id extends OperationId> = (typeof OPERATION_ROUTES)[Id];

// An operation's method and path with the given path parameters filled in.
export function routeWith(operationId: OperationId, parameters: Record<string, string>): { method: "GET" | "POST" | "DELETE"; path: string } {
  const route = OPERATION_ROUTES[operationId];
  return { method: route.method, path: route.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(parameters[name] ?? "")) };
}

// The same, typed: the client names what it calls by operation id, so a call the service's document lacks, or one
// missing a path parameter, does not compile.
export function operationRoute<Id extends OperationId>(
  operationId: Id,
  ...[parameters]: PathParameters<Route<Id>["path"]> extends never ? [] : [Record<PathParameters<Route<Id>["path"]>, string>]
): { method: Route<Id>["method"]; path: string } {
  return { method: OPERATION_ROUTES[operationId].method, path: routeWith(operationId, parameters ?? {}).path };
}
