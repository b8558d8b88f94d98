import type { z } from "zod";

// A shared wire object with a description on each named field, for the document: the shapes stay where they are
// defined (core/contracts, core/callbacks), the texts live here beside the operations that answer them.
export function describeFields<T extends z.ZodObject>(schema: T, texts: Partial<Record<keyof T["shape"] & string, string>>) {
  const shape = schema.shape as Record<string, z.ZodType>;
  const described = Object.fromEntries(
    Object.entries(texts).map(([name, text]) => {
      const field = shape[name];
      if (!field) throw new Error(`no field ${name} to describe`);
      return [name, field.describe(text as string)];
    }),
  );
  return schema.extend(described);
}
