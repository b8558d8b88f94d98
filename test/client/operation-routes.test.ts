import { describe, expect, it } from "vitest";
import { OPERATION_ROUTES } from "../../client/src/generated/operation-routes.js";
import { OPERATIONS } from "../../core/index.js";

// The client names the operations it calls by id, from a table generated from the OpenAPI document: that table is
// the operations table's rows, each once, so a client call compiles only against an operation the service serves.
describe("the client's operation routes", () => {
  it("are the operations table's rows, by id", () => {
    const tabled = Object.fromEntries(OPERATIONS.map((operation) => [operation.operationId, { method: operation.method, path: operation.path }]));
    expect(Object.keys(OPERATION_ROUTES)).toHaveLength(OPERATIONS.length);
    expect(OPERATION_ROUTES).toEqual(tabled);
  });
});
