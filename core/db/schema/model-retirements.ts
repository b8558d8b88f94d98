import { sql } from "drizzle-orm";
import { check, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// The operator's run-time word on a model's retirement (`svc model retire`): it overrides MODEL_RETIREMENTS for
// that model. Both dates null is `--clear`: no retirement, whatever the configuration says.
export const modelRetirements = pgTable(
  "model_retirements",
  {
    model: text("model").primaryKey(),
    deprecatedAt: timestamp("deprecated_at", { withTimezone: true }),
    retiresAt: timestamp("retires_at", { withTimezone: true }),
    replacement: text("replacement"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("model_retirements_dates_check", sql`(${t.retiresAt} is null) = (${t.deprecatedAt} is null) and (${t.deprecatedAt} is null or ${t.deprecatedAt} <= ${t.retiresAt})`),
    check("model_retirements_replacement_check", sql`${t.replacement} is null or ${t.retiresAt} is not null`),
  ],
);
