import type { CAPABILITY_PATHS } from "./generated/capabilities.js";
import type { components, operations, paths } from "./generated/openapi.js";

// Names for the generated shapes a caller handles; everything here is read from the OpenAPI document.
type Schemas = components["schemas"];

export type Task = Schemas["TaskEnvelope"];
export type TaskStatus = Task["status"];
export type Artifact = NonNullable<Task["output"]>["artifacts"][number];
export type ErrorObject = Schemas["Error"];
// The catalogue's codes (SPEC.md, Errors), as a union: a switch over them is checked by the compiler.
export type ErrorCode = ErrorObject["code"];
export type Quote = Schemas["Quote"];
export type TaskList = Schemas["TaskList"];
export type CreditBalance = Schemas["CreditBalance"];
export type CallbackEvent = Schemas["CallbackEvent"];

export type CapabilityId = keyof typeof CAPABILITY_PATHS;
export type CreatePath = (typeof CAPABILITY_PATHS)[CapabilityId];
type PathOf<T extends CapabilityId | CreatePath> = T extends CapabilityId ? (typeof CAPABILITY_PATHS)[T] : T;
// The JSON body of a capability's create, named by capability id or by path.
export type CreateBody<T extends CapabilityId | CreatePath> =
  paths[PathOf<T>]["post"]["requestBody"]["content"]["application/json"];
export type QuoteBody<C extends CapabilityId> = { capability: C } & CreateBody<C>;

export type ListTasksQuery = Omit<NonNullable<operations["listTasks"]["parameters"]["query"]>, "cursor" | "idempotency_key">;

export const TERMINAL_STATUSES: readonly TaskStatus[] = ["succeeded", "failed", "canceled"];

export function isTerminal(task: Pick<Task, "status">): boolean {
  return TERMINAL_STATUSES.includes(task.status);
}
