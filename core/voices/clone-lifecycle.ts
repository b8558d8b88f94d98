import { and, eq } from "drizzle-orm";
import { VOICE_CLONE_MODELS } from "../catalog/audio-models.js";
import type { Executor } from "../db/client.js";
import { voices } from "../db/schema/index.js";

// The voice a voice_clone task makes. It exists from admission as `pending` (GET /v1/voices shows it beside the
// task), becomes `active` in the transaction that ends the task succeeded, and `deleted` in the one that ends
// it failed or canceled. Its id follows from the task's, so the vendor is told the id to register the voice
// under before anything is stored, and a retried submission registers the same voice again.

const VOICE_CLONE = "voice_clone";
const TASK_PREFIX = "task_";

export function clonedVoiceIdOf(taskId: string): string {
  return `voice_${taskId.slice(TASK_PREFIX.length)}`;
}

interface AdmittedTask {
  id: string;
  tenantId: string;
  capability: string;
  resolvedModel: string;
  input: unknown;
  createdAt: Date;
}

// Inside the admission transaction: a voice_clone task's voice, pending until the task ends.
export async function insertPendingVoice(tx: Executor, task: AdmittedTask): Promise<void> {
  if (task.capability !== VOICE_CLONE) return;
  const input = task.input as { display_name: string; language?: string };
  const model = VOICE_CLONE_MODELS.find((m) => m.id === task.resolvedModel);
  await tx.insert(voices).values({
    id: clonedVoiceIdOf(task.id),
    tenantId: task.tenantId,
    displayName: input.display_name,
    language: input.language ?? null,
    models: [...(model?.constraints.voice_models ?? [])],
    status: "pending",
    taskId: task.id,
    createdAt: task.createdAt,
    updatedAt: task.createdAt,
  });
}

// Inside the transaction that ends a voice_clone task: success activates its voice, any other end retires it.
// Only a pending voice changes, so a voice its owner deleted meanwhile stays deleted.
export async function settleClonedVoice(tx: Executor, task: { id: string; capability: string; status: string }, now: Date): Promise<void> {
  if (task.capability !== VOICE_CLONE) return;
  const succeeded = task.status === "succeeded";
  await tx
    .update(voices)
    .set(succeeded ? { status: "active", updatedAt: now } : { status: "deleted", deletedAt: now, updatedAt: now })
    .where(and(eq(voices.id, clonedVoiceIdOf(task.id)), eq(voices.status, "pending")));
}
