import { readFileSync, writeFileSync } from "node:fs";

// Resident memory of a process, read from /proc/<pid>/status. The peak over a phase is the larger of what
// sampling saw and the kernel's own high-water mark (VmHWM), which is reset when the phase starts so that it
// covers that phase alone.

function statusField(pid: number, field: "VmRSS" | "VmHWM"): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export class PeakMemory {
  private readonly peaks = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly pids: Record<string, number>) {}

  start(intervalMs = 100): void {
    for (const [name, pid] of Object.entries(this.pids)) {
      try {
        // "5" resets the peak resident set size (Documentation/filesystems/proc.rst, clear_refs).
        writeFileSync(`/proc/${pid}/clear_refs`, "5");
      } catch {
        // Without the reset the sampled values still bound the peak from below.
      }
      this.peaks.set(name, statusField(pid, "VmRSS") ?? 0);
    }
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  // Peak resident bytes per process name since start().
  stop(): Record<string, number> {
    if (this.timer) clearInterval(this.timer);
    this.sample();
    for (const [name, pid] of Object.entries(this.pids)) {
      const hwm = statusField(pid, "VmHWM");
      if (hwm !== null) this.peaks.set(name, Math.max(this.peaks.get(name) ?? 0, hwm));
    }
    return Object.fromEntries(this.peaks);
  }

  private sample(): void {
    for (const [name, pid] of Object.entries(this.pids)) {
      const rss = statusField(pid, "VmRSS");
      if (rss !== null) this.peaks.set(name, Math.max(this.peaks.get(name) ?? 0, rss));
    }
  }
}
