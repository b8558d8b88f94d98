import { failure, type FieldFailure } from "../../errors/index.js";
import type { MediaFacts } from "../../media/slots.js";

// What a model accepts of a recording (a reference track, a voice sample) that only the decoded bytes tell: its
// real length and format. The worker checks it once the media is resolved; a failure ends the task failed with
// invalid_request at the field and a full refund, before the vendor is called.

export interface RecordingLimits {
  minSeconds: number;
  maxSeconds: number;
  formats: readonly string[];
}

export function recordingFailures(field: string, facts: MediaFacts | undefined, limits: RecordingLimits): FieldFailure[] {
  if (facts === undefined) return [];
  const failures: FieldFailure[] = [];
  if (!limits.formats.includes(facts.format)) {
    failures.push(failure([field], `is ${facts.format}; the model takes ${limits.formats.join(", ")}`));
  }
  const seconds = facts.durationSeconds;
  if (seconds < limits.minSeconds || seconds > limits.maxSeconds) {
    failures.push(failure([field], `lasts ${seconds.toFixed(1)} s; the model takes ${limits.minSeconds} to ${limits.maxSeconds} s`));
  }
  return failures;
}
