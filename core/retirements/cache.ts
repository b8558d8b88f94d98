import type { Db, DirectSql } from "../db/client.js";
import { readOperatorRetirements, RETIREMENTS_CHANNEL } from "./records.js";
import { RetirementSchedule, type Retirement } from "./retirement.js";

// The retirements in force, as this process last read them, so that an admission or a catalog read needs no query.
// Every change (`svc model retire`) notifies every process in its transaction, and each forgets what it read; a
// read that started before a change never keeps its now outdated answer. What was read is used only while the
// process is listening (re-read whenever listening starts again after a lost connection) and for one minute at
// most, which bounds what a change made by hand in SQL, without the notification, can leave behind.

const SNAPSHOT_TTL_MS = 60_000;

const inThisProcess = new Set<RetirementCache>();

export class RetirementCache {
  private snapshot: { schedule: RetirementSchedule; expiresAt: number } | null = null;
  private loading: Promise<RetirementSchedule> | null = null;
  private generation = 0;
  private listening = false;
  private listenStarted = false;

  constructor(
    private readonly db: Db,
    private readonly direct: DirectSql,
    private readonly configured: readonly Retirement[],
  ) {
    inThisProcess.add(this);
  }

  async current(): Promise<RetirementSchedule> {
    this.startListening();
    if (this.listening && this.snapshot && this.snapshot.expiresAt > Date.now()) return this.snapshot.schedule;
    if (this.loading) return this.loading;
    const generation = this.generation;
    const loading = readOperatorRetirements(this.db).then((operator) => new RetirementSchedule(this.configured, operator));
    this.loading = loading;
    try {
      const schedule = await loading;
      if (this.listening && generation === this.generation) this.snapshot = { schedule, expiresAt: Date.now() + SNAPSHOT_TTL_MS };
      return schedule;
    } finally {
      if (this.loading === loading) this.loading = null;
    }
  }

  forget(): void {
    this.generation += 1;
    this.snapshot = null;
    this.loading = null;
  }

  close(): void {
    inThisProcess.delete(this);
    this.listening = false;
    this.forget();
  }

  private startListening(): void {
    if (this.listenStarted) return;
    this.listenStarted = true;
    this.direct
      .listen(
        RETIREMENTS_CHANNEL,
        () => this.forget(),
        () => {
          this.forget();
          this.listening = true;
        },
      )
      .catch(() => {
        // Without notifications every read asks the database.
        this.listening = false;
      });
  }
}

// After a change commits, this process forgets at once, without waiting for its own notification.
export function forgetRetirementsInThisProcess(): void {
  for (const cache of inThisProcess) cache.forget();
}
