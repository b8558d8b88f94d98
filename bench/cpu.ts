import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Core } from "../core/index.js";

// CPU time spent by a server process and by the Postgres backends of the run's database while a load runs, read
// from /proc/<pid>/stat. Divided by the requests served it says what one request costs, a figure that other work
// on the machine disturbs far less than requests per second. Backends of a server on another machine cannot be
// read; their share is then unknown.

const TICKS_PER_SECOND = 100;

function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

export interface CpuUse {
  serverMs: number;
  postgresMs: number | null;
}

export class CpuMeter {
  private serverStart = 0;
  private backends: { pid: number; startMs: number }[] = [];

  constructor(
    private readonly core: Core,
    private readonly serverPid: number,
  ) {}

  async start(): Promise<void> {
    const rows = await this.core.db.execute<{ pid: number }>(
      sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    this.backends = rows.flatMap(({ pid }) => {
      const startMs = cpuMs(pid);
      return startMs === null ? [] : [{ pid, startMs }];
    });
    this.serverStart = cpuMs(this.serverPid) ?? 0;
  }

  stop(): CpuUse {
    const serverMs = (cpuMs(this.serverPid) ?? 0) - this.serverStart;
    if (this.backends.length === 0) return { serverMs, postgresMs: null };
    const postgresMs = this.backends.reduce((sum, b) => sum + ((cpuMs(b.pid) ?? b.startMs) - b.startMs), 0);
    return { serverMs, postgresMs };
  }
}
