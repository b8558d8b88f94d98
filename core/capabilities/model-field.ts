import { z } from "zod";

// The `model` field of a task-creating body, described from the capability's own model ids so the text agents and
// OpenAPI readers see cannot drift from the table. A plain string, not an enum: an unknown model is
// `unsupported_model` (400) from selection, not `invalid_request` (422) from the schema.

// No model id comes near this; a longer value is refused as invalid before selection, whose unsupported_model
// quotes what it received.
export const MODEL_FIELD_MAX = 128;

function modelChoices(autoSays: string, capabilityId: string, modelIds: readonly string[]): string {
  return (
    `${autoSays} picks a fitting live model; or one of ${modelIds.join(", ")}, never substituted ` +
    `(svc.models.list capability=${capabilityId}).`
  );
}

// SPEC.md's usual case: `model` may be omitted and defaults to `auto`.
export function modelField(capabilityId: string, modelIds: readonly string[]) {
  return z.string().min(1).max(MODEL_FIELD_MAX).default("auto").describe(modelChoices("`auto` (default)", capabilityId, modelIds));
}

// Where SPEC.md requires `model` (image and video understanding, text-to-music): no default, `auto` must be said.
export function requiredModelField(capabilityId: string, modelIds: readonly string[]) {
  return z.string().min(1).max(MODEL_FIELD_MAX).describe(modelChoices("Required. `auto`", capabilityId, modelIds));
}
