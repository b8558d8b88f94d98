import { createHash } from "node:crypto";
import { MediaProbeError, probeMedia } from "../media/probe.js";
import { enqueueJob } from "../jobs/enqueue.js";
import { ProviderFailure, type ProviderOutput } from "../providers/types.js";
import { downloadOutput } from "../providers/http.js";
import type { Core } from "../runtime.js";
import type { StoredUsage } from "./envelope.js";
import { finishSucceeded, finishUnsuccessfully, type NewArtifact } from "./finish.js";
import { findTask, isTerminal, transitionTask, type TaskRow } from "./repository.js";

const CONTENT_TYPES: Record<string, string> = {
  mp3: "audio/mpeg",
  wav: "audio/wav",
  flac: "audio/flac",
  opus: "audio/ogg",
  pcm: "audio/L16",
};

const MAX_TRANSIENT_ATTEMPTS = 6;

// Exponential backoff from the configured base, unless the vendor said when to come back (429 Retry-After).
function backoffMs(baseMs: number, attempt: number, hint: number | undefined): number {
  return hint ?? Math.min(60_000, baseMs * 2 ** Math.max(0, attempt - 1));
}

async function storeOutput(core: Core, task: TaskRow, output: ProviderOutput, signal: AbortSignal): Promise<NewArtifact> {
  const bytes = await downloadOutput(output.url, signal);
  const format = output.format ?? "bin";
  let media;
  try {
    media = await probeMedia(bytes, format === "pcm" ? { format: "pcm", sampleRate: output.sampleRate ?? 32000 } : undefined);
  } catch (error) {
    if (error instanceof MediaProbeError) {
      throw new ProviderFailure("model_output_invalid", `the model's output is not decodable ${output.kind}: ${error.message}`, false);
    }
    throw error;
  }
  const id = core.ids.artifact();
  const storageKey = `${task.tenantId}/${task.id}/${id}.${format}`;
  await core.artifacts.put(storageKey, bytes);
  return {
    id,
    kind: output.kind,
    contentType: CONTENT_TYPES[format] ?? "application/octet-stream",
    byteSize: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    storageKey,
    media: { format, ...media },
  };
}

function measuredUsage(task: TaskRow, stored: NewArtifact[]): StoredUsage {
  const quote = task.quote as StoredUsage;
  const audioSeconds = stored
    .filter((a) => a.kind === "audio")
    .reduce((sum, a) => sum + Number((a.media as { durationSeconds: number }).durationSeconds), 0);
  return { ...quote, counters: { ...quote.counters, audio_seconds: Math.ceil(audioSeconds) } };
}

function outputOf(task: TaskRow, stored: NewArtifact[]): Record<string, unknown> {
  return {
    type: stored[0]?.kind ?? task.capability,
    artifacts: stored.map((a) => {
      const media = a.media as { format: string; durationSeconds: number; sampleRate: number | null; channels: number | null };
      return {
        artifact_id: a.id,
        kind: a.kind,
        content_type: a.contentType,
        byte_size: a.byteSize,
        format: media.format,
        duration_seconds: media.durationSeconds,
        sample_rate: media.sampleRate,
        channels: media.channels,
      };
    }),
  };
}

// One run of the execute_task job. Safe to run again after a crash: a terminal task is left alone, and each
// finish is guarded so that a task ends exactly once.
export async function executeTask(core: Core, taskId: string, signal: AbortSignal): Promise<void> {
  const now = core.clock();
  const task = await findTask(core.db, taskId);
  if (!task || isTerminal(task.status)) return;
  if (task.deadlineAt <= now) {
    await finishUnsuccessfully(core, taskId, "failed", { code: "model_timeout", message: "the task passed its deadline before the model finished" });
    return;
  }
  const adapter = core.providers.get(task.providerFamily as never);
  if (!adapter) {
    await finishUnsuccessfully(core, taskId, "failed", {
      code: "model_unavailable",
      message: `model ${task.resolvedModel} is not available: its vendor family ${task.providerFamily} is not configured`,
    });
    return;
  }
  const running = await transitionTask(core.db, taskId, ["queued", "running"], {
    status: "running",
    startedAt: task.startedAt ?? now,
    attempts: task.attempts + 1,
    progress: { percent: 10, stage: "submitted", message: `sent to ${task.resolvedModel}` },
  });
  if (!running) return;

  try {
    const outcome = await adapter.submit(
      { taskId, capability: task.capability, model: task.resolvedModel, input: task.input as Record<string, unknown> },
      signal,
    );
    if (outcome.status !== "done") {
      throw new ProviderFailure("model_request_failed", `vendor ${task.providerFamily} answered with a pending task this adapter cannot follow`, false);
    }
    if (outcome.outputs.length === 0) {
      throw new ProviderFailure("model_request_failed", "vendor reported completion without any output", false);
    }
    const stored: NewArtifact[] = [];
    for (const output of outcome.outputs) stored.push(await storeOutput(core, running, output, signal));
    await finishSucceeded(core, taskId, { output: outputOf(running, stored), usage: measuredUsage(running, stored), artifacts: stored });
  } catch (error) {
    if (!(error instanceof ProviderFailure)) throw error;
    const retryAt = new Date(core.clock().getTime() + backoffMs(core.config.providerRetryBaseMs, running.attempts, error.retryAfterMs));
    if (error.transient && running.attempts < MAX_TRANSIENT_ATTEMPTS && retryAt < running.deadlineAt) {
      await core.db.transaction(async (tx) => {
        await transitionTask(tx, taskId, ["running"], {
          progress: { percent: 5, stage: "retrying", message: `${error.code}: ${error.message}; retrying at ${retryAt.toISOString()}` },
        });
        await enqueueJob(tx, "execute_task", { task_id: taskId }, { runAt: retryAt });
      });
      return;
    }
    await finishUnsuccessfully(core, taskId, "failed", { code: error.code, message: error.message });
  }
}
