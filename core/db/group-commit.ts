// Group commit: work items that arrive while transactions are running wait and then share the next one. An item
// arriving while fewer than `concurrency` transactions run starts one at the end of the current turn of the event
// loop, with every item that arrived in that turn; alone, it waits for nothing. Under load, what a transaction
// costs (round trips, the commit's flush, a hot row's lock) is paid once per group instead of once per item. With
// a concurrency of 2, the next group's first round trips overlap the running group's last ones (its connection,
// and any row lock both need, keep them correct). A group whose transaction fails is retried item by item, so one
// bad item fails alone.

const MAX_GROUP = 200;

interface Waiting<In, Out> {
  item: In;
  resolve(result: Out): void;
  reject(error: unknown): void;
}

export class GroupCommit<In, Out> {
  private waiting: Waiting<In, Out>[] = [];
  private scheduled = false;
  private running = 0;
  private idle: (() => void)[] = [];

  // `commit` runs one transaction for the items given and answers one result per item, in order; at most
  // `concurrency` of them run at once.
  constructor(
    private readonly commit: (items: In[]) => Promise<Out[]>,
    private readonly concurrency = 1,
  ) {}

  submit(item: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  // Resolves once every submitted item has been answered.
  drained(): Promise<void> {
    if (this.running === 0 && !this.scheduled && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private schedule(): void {
    if (this.running >= this.concurrency || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const group = this.waiting.splice(0, MAX_GROUP);
      this.running += 1;
      void this.run(group).finally(() => {
        this.running -= 1;
        if (this.waiting.length > 0) this.schedule();
        else if (this.running === 0) for (const resolve of this.idle.splice(0)) resolve();
      });
    });
  }

  private async run(group: Waiting<In, Out>[]): Promise<void> {
    try {
      const results = await this.commit(group.map((w) => w.item));
      group.forEach((w, i) => w.resolve(results[i] as Out));
    } catch (error) {
      if (group.length === 1) {
        group[0]?.reject(error);
        return;
      }
      for (const member of group) await this.run([member]);
    }
  }
}
