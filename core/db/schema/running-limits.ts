import { sql } from "drizzle-orm";
import { check, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

// An operator's limit on tasks running at once (status `running`, at the vendor included), beside the fair share
// of the workers (core/db/statements/start-tasks.ts): for one tenant (subject its id), one API key (its id) or one
// vendor family (its name, e.g. a vendor account's own concurrency limit). A tenant's row may also carry a
// weight: its share of the workers against other tenants'. Read by every start statement, so a change holds from
// the next start on, without a restart. Tasks past a limit wait queued; none fails for it.
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
    check("running_limits_max_check", sql`${t.maxRunning} is null or ${t.maxRunning} between 1 and 100000`),
    check("running_limits_weight_check", sql`${t.weight} is null or (${t.scope} = 'tenant' and ${t.weight} between 1 and 100)`),
    check("running_limits_some_check", sql`${t.maxRunning} is not null or ${t.weight} is not null`),
  ],
);
