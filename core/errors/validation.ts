import type { z } from "zod";
import { jsonPointer } from "./json-pointer.js";
import { ServiceError } from "./service-error.js";

export interface FieldFailure {
  loc: (string | number)[];
  param: string;
  reason: string;
}

export function failure(path: readonly (string | number)[], reason: string): FieldFailure {
  return { loc: [...path], param: jsonPointer(path), reason };
}

// 422 invalid_request: `param` names the first failure, `details.errors` lists all of them.
export function invalidRequest(failures: FieldFailure[], message?: string): ServiceError {
  const first = failures[0];
  return new ServiceError("invalid_request", message ?? (first ? `${first.param || "body"}: ${first.reason}` : "invalid request"), {
    param: first?.param,
    details: { errors: failures },
  });
}

// One failure per zod issue; an unknown field is reported at its own pointer rather than at its parent's.
export function zodFailures(error: z.ZodError, prefix: readonly (string | number)[] = []): FieldFailure[] {
  return error.issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => failure([...path, key], "is not a known field"));
    // zod says "Invalid input: expected string, received undefined" for a missing field: say it is required.
    if (issue.code === "invalid_type" && issue.message.endsWith("received undefined")) return [failure(path, `is required (${issue.expected})`)];
    return [failure(path, issue.message)];
  });
}
