import { z } from "zod";
import { invalidCursor, invalidQuery } from "./query-errors.js";

// Cursor pagination, once for every list (tasks, voices, callback signing keys): the query a list takes, how it is
// parsed, the cursor's encoding, and the page it answers. Each list says only where a cursor points (its own
// position type) and how a row becomes an item.

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Page size, 1 to 100 (default 20)."),
  cursor: z.string().optional().describe("The next_cursor of the previous page, unchanged."),
});

export function listPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    object: z.literal("list").describe("Always `list`."),
    data: z.array(item).describe("This page's items, in the list's order."),
    has_more: z.boolean().describe("Whether another page follows."),
    next_cursor: z.string().nullable().describe("Pass as `cursor` to read the next page; null on the last page."),
  });
}

export type ListPage<T> = {
  object: "list";
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
};

// Where a caller gave the list's parameters: REST's URL query (refusals name them as ["query", name] and carry no
// `param`, which points into a body), or a tool's arguments (refusals point at the argument, as MCP's do).
export type ListParameters = "query" | "arguments";

// A list's query parsed with its schema (pageQuerySchema extended with the list's filters), refused as
// invalid_request naming the parameter. Tools validate their arguments before they call a list, so only the
// query's refusal is made here.
export function parseListQuery<S extends z.ZodType>(schema: S, query: Record<string, unknown>): z.infer<S> {
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw invalidQuery(parsed.error);
  return parsed.data;
}

// A cursor is opaque to clients: the last item of a page as a small versioned JSON position, base64url. Decoding
// checks the shape the list expects (its version and the id's form), so a cursor edited by hand or taken from
// another list is refused as invalid_cursor instead of reading from an arbitrary place.
export function encodeCursor(position: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(position)).toString("base64url");
}

export function decodeCursor<P>(cursor: string, read: (value: Record<string, unknown>) => P | undefined, from: ListParameters): P {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const position = value !== null && typeof value === "object" && !Array.isArray(value) ? read(value as Record<string, unknown>) : undefined;
    if (position !== undefined) return position;
  } catch {
    // falls through to the refusal below
  }
  throw invalidCursor(from);
}

// A page from the rows read for it: one more row than `limit` was asked of the store, and its presence says
// another page follows; the cursor names the last row of this page.
export function pageOf<R, T>(rows: readonly R[], limit: number, positionOf: (last: R) => Record<string, unknown>, item: (row: R) => T): ListPage<T> {
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = page[page.length - 1];
  return {
    object: "list",
    data: page.map(item),
    has_more: hasMore,
    next_cursor: hasMore && last !== undefined ? encodeCursor(positionOf(last)) : null,
  };
}

// A list that is whole in one page (a lookup's at most one item).
export function wholePage<T>(data: T[]): ListPage<T> {
  return { object: "list", data, has_more: false, next_cursor: null };
}
