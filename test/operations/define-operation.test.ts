import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation } from "../../core/operations/define.js";
import type { UseCaseRuntime } from "../../core/operations/types.js";

// A row's use case is typed from the row's own schemas, and the compiler holds the params schema to the path's
// placeholders: the @ts-expect-error lines below are rows `npm run typecheck` refuses.

const row = {
  method: "GET",
  summary: "A page",
  area: "tasks",
  responses: { 200: { description: "The page" } },
  errors: [],
} as const;

// The use cases below read nothing of the runtime.
const core = {} as UseCaseRuntime;
const call = { tenantId: "tenant_1", query: {}, body: undefined };

describe("defineOperation", () => {
  it("hands the use case the router's path parameters read through the row's params schema", async () => {
    const operation = defineOperation({
      ...row,
      operationId: "getPage",
      path: "/v1/books/{book_id}/pages/{page}",
      params: z.object({ book_id: z.string(), page: z.coerce.number() }),
      run: async (_core, { params }) => ({ book: params.book_id, next: params.page + 1 }),
    });
    expect(await operation.run(core, { ...call, params: { book_id: "b1", page: "4", extra: "x" } })).toEqual({ book: "b1", next: 5 });
  });

  it("refuses at compile time a params schema that does not name the path's placeholders", () => {
    const rows = [
      // @ts-expect-error the path names {book_id}, the schema id
      defineOperation({ ...row, operationId: "a", path: "/v1/books/{book_id}", params: z.object({ id: z.string() }) }),
      // @ts-expect-error the path names no placeholder, the schema one
      defineOperation({ ...row, operationId: "b", path: "/v1/books", params: z.object({ id: z.string() }) }),
      defineOperation({
        ...row,
        operationId: "c",
        path: "/v1/books/{book_id}",
        params: z.object({ book_id: z.string() }),
        // @ts-expect-error a parameter the row does not have
        run: async (_core, { params }) => params.id,
      }),
    ];
    expect(rows).toHaveLength(3);
  });
});
