import { z } from "zod";

// The one description of a cursor-paginated list: the query every list route takes and the page it answers.
// (Each list's use case parses its own query with the same bounds; these are the documented shapes.)
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
