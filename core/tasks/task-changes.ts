import postgres from "postgres";
import { queryTimeout } from "../db/client.js";

// What the trigger of migrations/0008 announces on `task_changes` for each change of a task's status or progress.
export interface TaskChange {
  taskId: string;
  seq: bigint;
  status: string;
}

// Called with a change of the task, or with null when notifications may have been missed (the listening connection
// was lost and is back): the subscriber reads the task again.
export type TaskChangeListener = (change: TaskChange | null) => void;

export const TASK_CHANGES_CHANNEL = "task_changes";

function parseChange(payload: string): TaskChange | null {
  const [taskId, seq, status] = payload.split(" ");
  if (!taskId || !seq || !status || !/^\d+$/.test(seq)) return null;
  return { taskId, seq: BigInt(seq), status };
}

// One LISTEN connection per process, fanned out to every request waiting on a task in it: a thousand open streams
// cost one connection and a map entry each, and a change wakes only the subscribers of its task. The connection
// opens with the first subscription; postgres.js re-listens after a lost connection, and every subscriber is then
// told to read its task again, as a notification sent meanwhile is gone.
export class TaskChangeHub {
  private readonly subscribers = new Map<string, Set<TaskChangeListener>>();
  private client: postgres.Sql | null = null;
  private listening: Promise<void> | null = null;
  private listens = 0;

  constructor(
    private readonly databaseUrl: string,
    private readonly queryTimeoutMs: number,
  ) {}

  // Resolves once the process listens, so that a change committed after it is seen; returns the unsubscribe.
  async subscribe(taskId: string, listener: TaskChangeListener): Promise<() => void> {
    let set = this.subscribers.get(taskId);
    if (!set) this.subscribers.set(taskId, (set = new Set()));
    set.add(listener);
    const unsubscribe = () => {
      set.delete(listener);
      if (set.size === 0 && this.subscribers.get(taskId) === set) this.subscribers.delete(taskId);
    };
    try {
      await this.listen();
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  get subscriberCount(): number {
    let count = 0;
    for (const set of this.subscribers.values()) count += set.size;
    return count;
  }

  private listen(): Promise<void> {
    if (!this.listening) {
      this.client = postgres(this.databaseUrl, { ...queryTimeout(this.queryTimeoutMs), max: 1, onnotice: () => {} });
      this.listening = this.client
        .listen(TASK_CHANGES_CHANNEL, (payload) => this.deliver(payload), () => this.onListen())
        .then(() => undefined);
      // A failed listen (the database unreachable) is not kept: the next subscription tries again.
      const client = this.client;
      this.listening.catch(() => {
        this.listening = null;
        this.client = null;
        void client.end({ timeout: 1 });
      });
    }
    return this.listening;
  }

  private onListen(): void {
    this.listens += 1;
    if (this.listens === 1) return;
    for (const set of this.subscribers.values()) for (const listener of [...set]) listener(null);
  }

  private deliver(payload: string): void {
    const change = parseChange(payload);
    if (!change) return;
    const set = this.subscribers.get(change.taskId);
    if (set) for (const listener of [...set]) listener(change);
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.listening = null;
    if (client) await client.end({ timeout: 5 });
  }
}
