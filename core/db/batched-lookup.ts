// Lookups by key that arrive in one turn of the event loop share one statement: the first schedules it for the
// end of the turn, every other one joins it, and each caller gets its own answer. Under load a read that clients
// repeat (GET /v1/tasks/{id}) then costs Postgres one execution, one round trip and one socket write per group
// instead of per request; alone, a lookup waits for nothing but the end of its turn. A group is at most
// MAX_GROUP keys; more start the next one at once. A failed statement fails every lookup of its group, as the
// same statement run per request would have failed each of them.

const MAX_GROUP = 500;

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

export class BatchedLookup<V> {
  private pending = new Map<string, Waiter<V>[]>();
  private scheduled = false;

  // `fetch` answers the values found for the keys given, by key; a key it leaves out is answered undefined.
  constructor(private readonly fetch: (keys: string[]) => Promise<ReadonlyMap<string, V>>) {}

  get(key: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
      if (this.pending.size >= MAX_GROUP) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    if (this.pending.size === 0) return;
    const group = this.pending;
    this.pending = new Map();
    this.fetch([...group.keys()]).then(
      (found) => {
        for (const [key, waiters] of group) for (const waiter of waiters) waiter.resolve(found.get(key));
      },
      (error: unknown) => {
        for (const waiters of group.values()) for (const waiter of waiters) waiter.reject(error);
      },
    );
  }
}
