import { sql } from "drizzle-orm";
import { tasks } from "../db/schema/index.js";
import type { TaskChanges } from "../db/task-rows.js";
import { readLifecycle, type LifecycleRuntime } from "./lifecycle.js";
import type { Retirement } from "./retirement.js";

function retiredMeanwhileWarning(retirement: Retirement): { code: string; message: string; field: string } {
  return {
    code: "model_retired",
    message:
      `Model ${retirement.model} retired at ${retirement.retiresAt.toISOString()}, after this task was admitted. A task ` +
      `admitted before a retirement is not stopped: it ran and ended as the vendor answered.`,
    field: "/resolved_model",
  };
}

// What a task's ending adds to its warnings when its model has retired since its admission (no task is admitted on
// a retired model, so one that ends on it was admitted before): a `model_retired` warning saying why it still
// ran, or why the vendor may have refused it. One expression over the task's own resolved model, so the ending
// needs no read of its own; nothing when no model has retired.
export async function retiredMeanwhileChanges(core: LifecycleRuntime): Promise<TaskChanges> {
  const { schedule, now } = await readLifecycle(core);
  const retired = schedule.all().filter((r) => now.getTime() >= r.retiresAt.getTime());
  if (retired.length === 0) return {};
  const byModel = Object.fromEntries(retired.map((r) => [r.model, [retiredMeanwhileWarning(r)]]));
  return { warnings: sql`${tasks.warnings} || coalesce(${JSON.stringify(byModel)}::jsonb -> ${tasks.resolvedModel}, '[]'::jsonb)` };
}
