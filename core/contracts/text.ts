import { z } from "zod";

// Lengths in SPEC.md are counted in characters (Unicode code points), not UTF-16 units.
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function textOfLength(min: number, max: number) {
  return z
    .string()
    .refine((s) => codePointLength(s) >= min, { message: `must be at least ${min} characters`, abort: true })
    .refine((s) => codePointLength(s) <= max, { message: `must be at most ${max} characters` });
}

export const bcp47Tag = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, "must be a BCP-47 language tag such as `en` or `pt-BR`");

export function primarySubtag(tag: string): string {
  return (tag.split("-")[0] ?? tag).toLowerCase();
}
