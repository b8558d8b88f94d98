import { z } from "zod";

export const FAULT_KINDS = [
  "http_500",
  "http_429",
  "hang",
  "safety",
  "content_filtered",
  "bad_download",
  "unknown_status",
  "malformed",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const faultRequestSchema = z.object({
  family: z.string().min(1),
  model: z.string().min(1).optional(),
  kind: z.enum(FAULT_KINDS),
  times: z.number().int().positive().default(1),
  retry_after_seconds: z.number().int().nonnegative().optional(),
});
export type FaultRequest = z.infer<typeof faultRequestSchema>;

export interface TriggeredFault {
  kind: FaultKind;
  retryAfterSeconds: number | undefined;
}

interface QueuedFault {
  family: string;
  model: string | undefined;
  kind: FaultKind;
  remaining: number;
  retryAfterSeconds: number | undefined;
}

// Faults scripted by tests, handed out in the order they were queued to the submit requests they match.
export class FaultQueue {
  private queued: QueuedFault[] = [];

  add(request: FaultRequest): void {
    this.queued.push({
      family: request.family,
      model: request.model,
      kind: request.kind,
      remaining: request.times,
      retryAfterSeconds: request.retry_after_seconds,
    });
  }

  clear(): void {
    this.queued = [];
  }

  take(family: string, model: string | null): TriggeredFault | undefined {
    const fault = this.queued.find(
      (candidate) => candidate.family === family && (candidate.model === undefined || candidate.model === model),
    );
    if (fault === undefined) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.queued = this.queued.filter((candidate) => candidate !== fault);
    return { kind: fault.kind, retryAfterSeconds: fault.retryAfterSeconds };
  }
}
