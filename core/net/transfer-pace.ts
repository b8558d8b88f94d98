import { OutboundError } from "./outbound-error.js";

// How fast a response must come for a caller that cannot afford to wait on a slow source (a media download holds
// one of the worker's slots): its headers within `firstByteMs` of the request, then at least `minBytesPerSecond`
// of body over every sliding window of `windowMs`. A short pause within a window is forgiven; a source that
// drips, or stops, is not. A rate of 0 asks for the first answer in time only.
export interface TransferPace {
  firstByteMs: number;
  minBytesPerSecond: number;
  windowMs: number;
}

// Samples per window: the window slides in steps of a fifth of it (at most a second), so a source falling under
// the rate is cut off within one step of the moment a whole window shows it.
const STEPS_PER_WINDOW = 5;

// Watches one exchange: `responded` when the headers arrive, `received` for every body chunk, `stop` once it is
// over. `fail` is called at most once, with "stalled" (no headers in time, or not a byte in a whole window) or
// "too_slow" (bytes, but fewer than the rate asks over a whole window).
export class PaceWatch {
  private readonly timer: NodeJS.Timeout;
  private samples: { at: number; bytes: number }[] | null = null;
  private bytes = 0;
  private readonly startedAt = Date.now();

  constructor(
    private readonly pace: TransferPace,
    private readonly fail: (error: OutboundError) => void,
  ) {
    const step = Math.max(10, Math.min(1000, Math.floor(pace.windowMs / STEPS_PER_WINDOW)));
    this.timer = setInterval(() => this.check(), step);
    this.timer.unref();
  }

  responded(): void {
    this.samples = [{ at: Date.now(), bytes: 0 }];
  }

  received(length: number): void {
    this.bytes += length;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    const now = Date.now();
    if (!this.samples) {
      if (now - this.startedAt >= this.pace.firstByteMs) this.end(new OutboundError("stalled", `no answer within ${this.pace.firstByteMs} ms`));
      return;
    }
    if (this.pace.minBytesPerSecond === 0) return;
    this.samples.push({ at: now, bytes: this.bytes });
    const windowStart = now - this.pace.windowMs;
    // Keep the newest sample at or before the window's start: the window is measured from there.
    while (this.samples.length > 1 && (this.samples[1] as { at: number }).at <= windowStart) this.samples.shift();
    const oldest = this.samples[0] as { at: number; bytes: number };
    if (oldest.at > windowStart) return;
    const elapsed = now - oldest.at;
    const arrived = this.bytes - oldest.bytes;
    if (arrived === 0) {
      this.end(new OutboundError("stalled", `not a byte in ${elapsed} ms`));
    } else if (arrived * 1000 < this.pace.minBytesPerSecond * elapsed) {
      this.end(new OutboundError("too_slow", `${arrived} bytes in the last ${elapsed} ms, under the minimum of ${this.pace.minBytesPerSecond} bytes per second`));
    }
  }

  private end(error: OutboundError): void {
    this.stop();
    this.fail(error);
  }
}
