import type { z } from "zod";
import { failure, ServiceError, zodFailures } from "../errors/index.js";

// Refusals of a URL's query. SPEC.md makes `param` a JSON Pointer into the request body, and a query parameter is
// not in the body, so these carry no `param`: `details.errors[].loc` names the parameter as ["query", name], as
// header failures name theirs (docs/decisions.md, Errors).
export function invalidQuery(error: z.ZodError): ServiceError {
  const errors = zodFailures(error, ["query"]).map(({ loc, reason }) => ({ loc, reason }));
  const first = errors[0];
  const message = first ? `Query parameter ${first.loc.slice(1).join(".")} ${first.reason}.` : "The query is invalid.";
  return new ServiceError("invalid_request", message, { details: { errors } });
}

// A cursor given in the query is named as ["query", "cursor"]; one given as a tool's argument is pointed at, as
// the tool's other argument refusals are (`param` "/cursor").
export function invalidCursor(from: "query" | "arguments"): ServiceError {
  const reason = "is not a next_cursor of this list";
  return new ServiceError("invalid_cursor", "The pagination cursor is malformed; pass next_cursor from a previous page unchanged.", {
    ...(from === "arguments" ? { param: "/cursor" } : {}),
    details: { errors: [from === "arguments" ? failure(["cursor"], reason) : { loc: ["query", "cursor"], reason }] },
  });
}
