import { z } from "zod";
import { findModel } from "../catalog/registry.js";
import { retirementDate } from "./dates.js";
import type { Retirement } from "./retirement.js";

// MODEL_RETIREMENTS: {"<model id>": {"retires_at": "2026-12-15", "deprecated_at": "2026-12-01", "replacement": "<id>"}}.
// Without `deprecated_at` a model is deprecated from the moment the setting is read (the process's start), as one
// `svc model retire` sets is from the moment it is set.
const entry = z
  .object({
    retires_at: retirementDate,
    deprecated_at: retirementDate.optional(),
    replacement: z.string().min(1).optional(),
  })
  .strict();

export const modelRetirementsJson = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: 'must be JSON such as {"<model id>": {"retires_at": "2026-12-15", "replacement": "<model id>"}}' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string(), entry));

// The problems of one model's retirement, whoever sets it: an id outside the catalog, a replacement that is not
// another model of a capability the model serves, a deprecation after the retirement.
export function retirementProblems(model: string, deprecatedAt: Date, retiresAt: Date, replacement: string | null): string[] {
  const problems: string[] = [];
  const card = findModel(model);
  if (!card) return [`${model}: no such model in the catalog`];
  if (deprecatedAt.getTime() > retiresAt.getTime()) problems.push(`${model}: deprecated_at is after retires_at`);
  if (replacement !== null) {
    const other = findModel(replacement);
    if (!other || other.id === model || !other.capabilities.some((c) => card.capabilities.includes(c))) {
      problems.push(`${model}: the replacement must be another catalog model serving one of its capabilities (${card.capabilities.join(", ")})`);
    }
  }
  return problems;
}

export function configuredRetirements(entries: z.output<typeof modelRetirementsJson>, readAt: Date): { retirements: Retirement[]; problems: string[] } {
  const retirements: Retirement[] = [];
  const problems: string[] = [];
  for (const [model, value] of Object.entries(entries)) {
    const retiresAt = value.retires_at;
    const deprecatedAt = value.deprecated_at ?? new Date(Math.min(readAt.getTime(), retiresAt.getTime()));
    const replacement = value.replacement ?? null;
    const found = retirementProblems(model, deprecatedAt, retiresAt, replacement);
    if (found.length > 0) problems.push(...found);
    else retirements.push({ model, deprecatedAt, retiresAt, replacement, source: "configuration" });
  }
  return { retirements, problems };
}
