import { and, eq } from "drizzle-orm";
import { VOICE_CLONE_MODELS } from "../../catalog/audio-models.js";
import type { AdmissionSql, Tx } from "../../db/client.js";
import type { Fragment } from "../../db/one-statement.js";
import { voices } from "../../db/schema/index.js";
import type { AdmittedTask, EndedTask } from "../types.js";

// The voice a voice_clone task makes. It exists from admission as `pending` (GET /v1/voices shows it beside the
// task), becomes `active` in the transaction that ends the task succeeded, and `deleted` in the one that ends
// it failed or canceled. Its id follows from the task's, so the vendor is told the id to register the voice
// under before anything is stored, and a retried submission registers the same voice again.

const TASK_PREFIX = "task_";

export function clonedVoiceIdOf(taskId: string): string {
  return `voice_${taskId.slice(TASK_PREFIX.length)}`;
}

// The voice_clone capability's admission hook: the voices of the tasks admitted together, pending until each ends.
export function insertPendingVoices(sql: AdmissionSql, admitted: readonly AdmittedTask[]): Fragment {
  const records = admitted.map((task) => {
    const input = task.input as { display_name: string; language?: string };
    const model = VOICE_CLONE_MODELS.find((m) => m.id === task.resolvedModel);
    return {
      id: clonedVoiceIdOf(task.id),
      tenant_id: task.tenantId,
      display_name: input.display_name,
      language: input.language ?? null,
      models: [...(model?.constraints.voice_models ?? [])],
      task_id: task.id,
      created_at: task.createdAt.toISOString(),
    };
  });
  return sql`
    insert into voices (id, tenant_id, display_name, language, models, status, task_id, created_at, updated_at)
    select v.id, v.tenant_id, v.display_name, v.language, v.models, 'pending', v.task_id, v.created_at, v.created_at
      from jsonb_to_recordset(${sql.json(records)}::jsonb)
        as v(id text, tenant_id text, display_name text, language text, models text[], task_id text, created_at timestamptz)`;
}

// The voice_clone capability's finish hook: success activates the task's voice, any other end retires it. Only a
// pending voice changes, so a voice its owner deleted meanwhile stays deleted.
export async function settleClonedVoice(tx: Tx, task: EndedTask, now: Date): Promise<void> {
  const succeeded = task.status === "succeeded";
  await tx
    .update(voices)
    .set(succeeded ? { status: "active", updatedAt: now } : { status: "deleted", deletedAt: now, updatedAt: now })
    .where(and(eq(voices.id, clonedVoiceIdOf(task.id)), eq(voices.status, "pending")));
}
