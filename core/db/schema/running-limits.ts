import { sql } from "drizzle-orm";
import { check, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

// An operator's limit on tasks running at once (status `running`, at the vendor included), beside the fair share
// of the workers (core/db/statements/start-tasks.ts): for one tenant (subject its id), one API key (its id) or one
// vendor family (its name, e.g. a vendor account's own concurrency limit). A tenant's row may also carry a
// weight: its share of the workers against other tenants'. Read by every start statement, so a change holds from
// the next start on, without a restart. Tasks past a limit wait queued; none fails for it.
// What the checks below allow, for callers that refuse a value before it reaches them (the CLI).
export const MAX_RUNNING_RANGE = { min: 1, max: 100_000 } as const;
export const WEIGHT_RANGE = { min: 1, max: 100 } as const;
const between = (range: { min: number; max: number }) => sql.raw(`between ${range.min} and ${range.max}`);

export const runningLimits = pgTable(
  "running_limits",
  {
    scope: text("scope").notNull(),
    subject: text("subject").notNull(),
    maxRunning: integer("max_running"),
    weight: integer("weight"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.subject] }),
    check("running_limits_scope_check", sql`${t.scope} in ('tenant', 'key', 'family')`),
    check("running_limits_max_check", sql`${t.maxRunning} is null or ${t.maxRunning} ${between(MAX_RUNNING_RANGE)}`),
    check("running_limits_weight_check", sql`${t.weight} is null or (${t.scope} = 'tenant' and ${t.weight} ${between(WEIGHT_RANGE)})`),
    check("running_limits_some_check", sql`${t.maxRunning} is not null or ${t.weight} is not null`),
  ],
);
