import type { ArtifactUrlSigner } from "../artifacts/signed-url.js";
import { findCapability, inputSchemaOf } from "../capabilities/table.js";
import { findModel } from "../catalog/registry.js";
import { invalidRequest, jsonPointer } from "../errors/index.js";
import { factsOfResolved, knownInput } from "../media/known-facts.js";
import { resolveMediaInputs, type MediaResolutionRuntime } from "../media/resolve.js";
import { mediaSlots, replaceAt, type MediaFacts } from "../media/slots.js";
import { inputLimitFailures } from "../selection/input-limits.js";
import { concreteModelError } from "../selection/select.js";
import { chooseAgain, type ReselectionRuntime } from "./reselection.js";
import type { TaskRow } from "./repository.js";
import { transitionTask } from "../db/statements/transition-task.js";

export type ResolvedMediaMap = Record<string, MediaFacts>;

// The parts of the runtime resolving a task's inputs uses: the resolution's, and what choosing again uses.
export interface ResolvedInputsRuntime extends MediaResolutionRuntime, ReselectionRuntime {}

export interface ResolvedInputs {
  // The task as it runs: with the model `auto` chose again when the inputs ruled the first one out.
  task: TaskRow;
  media: ResolvedMediaMap;
}

// Resolves a task's media inputs once (a retried job reuses what the first run stored) and applies the
// capability's rules and the model's input limits on the decoded media. Null when the task stopped running while
// its model was chosen again.
export async function ensureMediaResolved(core: ResolvedInputsRuntime, task: TaskRow): Promise<ResolvedInputs | null> {
  const input = task.input as Record<string, unknown>;
  let facts = task.resolvedMedia as ResolvedMediaMap | null;
  if (!facts) {
    const schema = inputSchemaOf(task.capability);
    if (mediaSlots(schema, input).length === 0) return { task, media: {} };
    facts = await resolveMediaInputs(core, schema, { id: task.id, tenantId: task.tenantId, input });
    await transitionTask(core.db, task.id, "advance", { resolvedMedia: facts });
  }
  const failures = findCapability(task.capability)?.checkResolvedMedia?.(input, facts, task.resolvedModel) ?? [];
  if (failures.length > 0) throw invalidRequest(failures);
  const running = await modelTakingInputs(core, task, facts);
  return running ? { task: running, media: facts } : null;
}

// The model's published input limits against every decoded input: a URL's facts are first known here, and the
// vendor must never be sent what it would refuse. A concrete model fails the task with the code admission would
// have answered; `auto` chooses again with every input known (core/tasks/reselection.ts).
async function modelTakingInputs(core: ReselectionRuntime, task: TaskRow, facts: ResolvedMediaMap): Promise<TaskRow | null> {
  const model = findModel(task.resolvedModel);
  if (!model) return task;
  const input = task.input as Record<string, unknown>;
  const known = mediaSlots(inputSchemaOf(task.capability), input).flatMap((slot) => {
    const resolved = facts[jsonPointer(slot.path)];
    return resolved ? [knownInput(slot, factsOfResolved(resolved))] : [];
  });
  const failures = inputLimitFailures(model.input_limits, known, input).map((f) => ({ model: model.id, ...f }));
  if (failures.length === 0) return task;
  if (task.model !== "auto") throw concreteModelError(model.id, failures);
  return chooseAgain(core, task, known, failures);
}

// The input a vendor adapter sees: every media input replaced by its stored artifact with a signed URL the vendor
// can download, and the facts decoding established.
export function inputForVendor(task: TaskRow, media: ResolvedMediaMap, signer: ArtifactUrlSigner, now: Date): Record<string, unknown> {
  const input = structuredClone(task.input as Record<string, unknown>);
  for (const slot of mediaSlots(inputSchemaOf(task.capability), task.input as Record<string, unknown>)) {
    const facts = media[jsonPointer(slot.path)];
    if (!facts) continue;
    replaceAt(input, slot.path, {
      type: "artifact",
      artifact_id: facts.artifactId,
      url: signer.sign(facts.artifactId, now).url,
      kind: facts.kind,
      format: facts.format,
      width: facts.width,
      height: facts.height,
      duration_seconds: facts.durationSeconds,
      has_audio: facts.hasAudio,
    });
  }
  return input;
}
