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

export function zodFailures(error: z.ZodError, prefix: readonly (string | number)[] = []): FieldFailure[] {
  return error.issues.map((issue) =>
    failure(
      [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
      issue.message,
    ),
  );
}
