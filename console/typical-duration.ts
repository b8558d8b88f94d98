import { api, operationRoute } from "./api";
import type { Task, TaskList } from "./types";

// How long a model usually takes, for the live steps' "typically 8 s": the catalog's cards carry no durations, so
// it is read from this account's own recent tasks on the model (created to completed, the median, which one slow
// run does not move). Asked once per capability and model while the console is open, once there is one.

export interface TypicalDuration {
  seconds: number;
  // How many finished tasks the median is of.
  of: number;
}

const asked = new Map<string, Promise<TypicalDuration | null>>();

export function secondsOf(task: Task): number | null {
  if (!task.completed_at) return null;
  return (Date.parse(task.completed_at) - Date.parse(task.created_at)) / 1000;
}

async function measure(capability: string, model: string): Promise<TypicalDuration | null> {
  const page = await api<TaskList>(operationRoute("listTasks"), { query: { capability, status: "succeeded", limit: 100 } });
  const durations = page.data
    .filter((t) => t.resolved_model === model)
    .map(secondsOf)
    .filter((s): s is number => s !== null)
    .sort((a, b) => a - b);
  if (durations.length === 0) return null;
  const middle = Math.floor(durations.length / 2);
  const seconds = durations.length % 2 === 1 ? durations[middle]! : (durations[middle - 1]! + durations[middle]!) / 2;
  return { seconds, of: durations.length };
}

export function typicalDuration(capability: string, model: string): Promise<TypicalDuration | null> {
  const key = `${capability} ${model}`;
  let answer = asked.get(key);
  if (!answer) {
    // Nothing measured yet (or the read failed) is asked again next time: the account's first run on a model
    // is the measure of its second.
    answer = measure(capability, model).catch(() => null);
    asked.set(key, answer);
    void answer.then((measured) => measured ?? asked.delete(key));
  }
  return answer;
}
