import { sql } from "drizzle-orm";
import type { Db, DirectSql, Tx } from "../db/client.js";
import type { Area } from "./areas.js";

export interface Principal {
  tenantId: string;
  apiKeyId: string;
  areas: readonly Area[] | null;
}

// The callers this process has recently authenticated, by key hash, so that a request needs no query to know who
// it is. Only accepted keys are kept (refusals always ask the database). Every change to a key or a tenant's status
// goes through changeCredentials: in its transaction it notifies every process, which forget everything
// they kept; the process making the change forgets at once, before its caller goes on. A lookup that started
// before a change never stores its now outdated answer. Entries are used only while the process is listening (and
// everything is forgotten whenever listening starts again after a lost connection), and for one minute at most,
// which bounds what a change made by hand in SQL, without the notification, can leave behind.

const CHANNEL = "svc_credentials_changed";
const ENTRY_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

const inThisProcess = new Set<PrincipalCache>();

export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; expiresAt: number }>();
  private generation = 0;
  private listening = false;
  private listenStarted = false;

  constructor(private readonly direct: DirectSql) {
    inThisProcess.add(this);
  }

  async lookup(keyHash: string, load: () => Promise<Principal>): Promise<Principal> {
    this.startListening();
    const entry = this.listening ? this.entries.get(keyHash) : undefined;
    if (entry && entry.expiresAt > Date.now()) return entry.principal;
    const generation = this.generation;
    const principal = await load();
    if (this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(keyHash, { principal, expiresAt: Date.now() + ENTRY_TTL_MS });
    }
    return principal;
  }

  forget(): void {
    this.generation += 1;
    this.entries.clear();
  }

  close(): void {
    inThisProcess.delete(this);
    this.listening = false;
    this.forget();
  }

  // The notification connection is opened on first use, so processes that authenticate nobody (the worker) hold none.
  private startListening(): void {
    if (this.listenStarted) return;
    this.listenStarted = true;
    this.direct
      .listen(
        CHANNEL,
        () => this.forget(),
        () => {
          this.forget();
          this.listening = true;
        },
      )
      .catch(() => {
        // Without notifications every lookup asks the database.
        this.listening = false;
      });
  }
}

// Every change to a key or a tenant's status: in its transaction, a notification that every process forgets what
// it kept; after the commit, this process forgets at once, without waiting for its own notification.
export async function changeCredentials<T>(db: Db, change: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await db.transaction(async (tx) => {
    const changed = await change(tx);
    await tx.execute(sql`select pg_notify(${CHANNEL}, '')`);
    return changed;
  });
  for (const cache of inThisProcess) cache.forget();
  return result;
}
