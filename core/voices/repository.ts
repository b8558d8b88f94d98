import { and, desc, eq, lt, ne } from "drizzle-orm";
import type { Executor } from "../db/client.js";
import { voices } from "../db/schema/index.js";

export type ClonedVoiceRow = typeof voices.$inferSelect;

// A tenant's cloned voice that has not been deleted (pending or active); foreign ids find nothing.
export async function findClonedVoice(tx: Executor, tenantId: string, voiceId: string): Promise<ClonedVoiceRow | null> {
  const rows = await tx
    .select()
    .from(voices)
    .where(and(eq(voices.id, voiceId), eq(voices.tenantId, tenantId), ne(voices.status, "deleted")))
    .limit(1);
  return rows[0] ?? null;
}

// Newest first: ids are time-ordered, so `beforeId` continues a listing with one index range scan.
export async function listClonedVoices(
  tx: Executor,
  filter: { tenantId: string; beforeId?: string | undefined; limit: number },
): Promise<ClonedVoiceRow[]> {
  const conditions = [eq(voices.tenantId, filter.tenantId), ne(voices.status, "deleted")];
  if (filter.beforeId !== undefined) conditions.push(lt(voices.id, filter.beforeId));
  return tx
    .select()
    .from(voices)
    .where(and(...conditions))
    .orderBy(desc(voices.id))
    .limit(filter.limit);
}

// Returns false when there was no such live voice of the tenant (unknown, foreign or already deleted).
export async function markClonedVoiceDeleted(tx: Executor, tenantId: string, voiceId: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(voices)
    .set({ status: "deleted", deletedAt: now, updatedAt: now })
    .where(and(eq(voices.id, voiceId), eq(voices.tenantId, tenantId), ne(voices.status, "deleted")))
    .returning({ id: voices.id });
  return rows.length > 0;
}
