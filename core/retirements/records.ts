import { inArray, sql } from "drizzle-orm";
import { ALL_MODELS } from "../catalog/registry.js";
import type { Db } from "../db/client.js";
import { modelRetirements } from "../db/schema/index.js";
import type { OperatorRetirement } from "./retirement.js";

// Every process keeps the retirements it read (core/retirements/cache.ts) and forgets them on this notification,
// sent in the transaction of every change.
export const RETIREMENTS_CHANNEL = "svc_model_retirements_changed";

const CATALOG_IDS = ALL_MODELS.map((m) => m.id);

// The operator's rows, for the catalog's models only: a row for an id no longer in the catalog plays no part, and
// the read is bounded by the catalog's size.
export async function readOperatorRetirements(db: Db): Promise<OperatorRetirement[]> {
  const rows = await db.select().from(modelRetirements).where(inArray(modelRetirements.model, CATALOG_IDS));
  return rows.map((row) =>
    row.retiresAt === null || row.deprecatedAt === null
      ? { model: row.model, cleared: true as const }
      : { model: row.model, deprecatedAt: row.deprecatedAt, retiresAt: row.retiresAt, replacement: row.replacement, source: "operator" as const },
  );
}

export type RetirementChange = { model: string; cleared: true } | { model: string; deprecatedAt: Date; retiresAt: Date; replacement: string | null };

export async function writeOperatorRetirement(db: Db, change: RetirementChange, now: Date): Promise<void> {
  const values =
    "cleared" in change
      ? { deprecatedAt: null, retiresAt: null, replacement: null }
      : { deprecatedAt: change.deprecatedAt, retiresAt: change.retiresAt, replacement: change.replacement };
  await db.transaction(async (tx) => {
    await tx
      .insert(modelRetirements)
      .values({ model: change.model, ...values, updatedAt: now })
      .onConflictDoUpdate({ target: modelRetirements.model, set: { ...values, updatedAt: now } });
    await tx.execute(sql`select pg_notify(${RETIREMENTS_CHANNEL}, '')`);
  });
}
