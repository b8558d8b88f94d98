import { randomUUID } from "node:crypto";
import type { FaultKind } from "./faults.js";
import type { FileStore, StoredFile } from "./file-store.js";
import { renderRequestedVideo } from "./media/requested-video.js";
import { renderLastFrame, type VideoRenderRequest } from "./media/video-render.js";

// The vendor side of a video generation task, in neutral terms; each family's routes translate it into their
// own vocabulary (queued/running, PENDING/RUNNING, operations with done). A job moves on by one stage each
// time its status is read, so progress visibly advances across polls whatever the polling rate, and it
// finishes once its clip has been rendered and it has been seen at every stage.

export type JobPhase = "queued" | "running" | "succeeded" | "failed" | "canceled";

// Scripted faults that show in the life of the job rather than in the answer to its submission.
export type JobFault = Extract<FaultKind, "hang" | "content_filtered" | "unknown_status" | "bad_download">;
const JOB_FAULTS: readonly FaultKind[] = ["hang", "content_filtered", "unknown_status", "bad_download"];

export function isJobFault(kind: FaultKind | undefined): kind is JobFault {
  return kind !== undefined && JOB_FAULTS.includes(kind);
}

export interface VideoJobSpec extends VideoRenderRequest {
  returnLastFrame: boolean;
}

// `Details` is what the family keeps of the request to echo it back in its own words.
export interface VideoJob<Details = unknown> {
  readonly id: string;
  readonly model: string;
  readonly spec: VideoJobSpec;
  readonly details: Details;
  readonly createdAt: Date;
  updatedAt: Date;
  phase: JobPhase;
  progress: number;
  // Why a failed job failed: its output was blocked, or rendering broke.
  failure: "content_filtered" | "render_failed" | null;
  // The unknown_status fault: the job reports a state outside the vendor's documented vocabulary.
  undocumented: boolean;
  video: StoredFile | null;
  lastFrame: StoredFile | null;
}

interface JobState<Details> {
  job: VideoJob<Details>;
  fault: JobFault | undefined;
  reads: number;
  rendered: "pending" | "done" | "failed";
}

const CONTAINER_TYPES = { mp4: "video/mp4", mov: "video/quicktime" } as const;

export class VideoJobBoard<Details = unknown> {
  private readonly jobs = new Map<string, JobState<Details>>();

  // `runningProgress` is the percentage shown at each running stage; its length is the number of reads a job
  // spends running before it can finish.
  constructor(
    private readonly files: FileStore,
    private readonly runningProgress: readonly number[],
  ) {}

  submit(job: { id?: string; model: string; spec: VideoJobSpec; details: Details }, fault: JobFault | undefined): VideoJob<Details> {
    const now = new Date();
    const created: VideoJob<Details> = {
      id: job.id ?? randomUUID(),
      model: job.model,
      spec: job.spec,
      details: job.details,
      createdAt: now,
      updatedAt: now,
      phase: "queued",
      progress: 0,
      failure: null,
      undocumented: false,
      video: null,
      lastFrame: null,
    };
    const state: JobState<Details> = { job: created, fault, reads: 0, rendered: "pending" };
    this.jobs.set(created.id, state);
    // Only a job that will deliver its clip (if not downloadably, under bad_download) is worth rendering.
    if (fault === undefined || fault === "bad_download") void this.render(state);
    return created;
  }

  // The job as a status read sees it; the read itself moves the job on by one stage.
  read(id: string): VideoJob<Details> | undefined {
    const state = this.jobs.get(id);
    if (state === undefined) return undefined;
    const { job } = state;
    if (job.phase === "succeeded" || job.phase === "failed" || job.phase === "canceled") return job;
    state.reads += 1;
    if (state.fault === "unknown_status") job.undocumented = true;
    const stages = this.runningProgress.length;
    // A hung job never gets past its first stage; the others can end once they have been seen at every stage.
    // Jobs under the hang and unknown_status faults are never rendered, so they never succeed.
    const due = state.fault !== "hang" && state.reads > stages;
    if (due && state.fault === "content_filtered") {
      this.finish(job, "failed", "content_filtered");
    } else if (due && state.rendered === "done") {
      this.finish(job, "succeeded", null);
    } else if (due && state.rendered === "failed") {
      this.finish(job, "failed", "render_failed");
    } else {
      job.phase = "running";
      job.progress = this.runningProgress[Math.min(state.reads, state.fault === "hang" ? 1 : stages) - 1] ?? 0;
      job.updatedAt = new Date();
    }
    return job;
  }

  // The job as it stands, without moving it on (for lookups other than status reads).
  peek(id: string): VideoJob<Details> | undefined {
    return this.jobs.get(id)?.job;
  }

  // Stops a job that has not finished; a finished one is left as it is.
  cancel(id: string): "canceled" | "finished" | undefined {
    const job = this.jobs.get(id)?.job;
    if (job === undefined) return undefined;
    if (job.phase !== "queued" && job.phase !== "running") return "finished";
    job.phase = "canceled";
    job.updatedAt = new Date();
    return "canceled";
  }

  private finish(job: VideoJob<Details>, phase: "succeeded" | "failed", failure: VideoJob["failure"]): void {
    job.phase = phase;
    job.failure = failure;
    job.progress = phase === "succeeded" ? 100 : job.progress;
    job.updatedAt = new Date();
  }

  private async render(state: JobState<Details>): Promise<void> {
    const { spec } = state.job;
    const failsDownload = state.fault === "bad_download";
    try {
      const { file: video } = await this.files.save((path) => renderRequestedVideo(spec, path), {
        contentType: CONTAINER_TYPES[spec.container],
        failsDownload,
      });
      state.job.video = video;
      if (spec.returnLastFrame) {
        const { file: frame } = await this.files.save((path) => renderLastFrame(video.path, path), { contentType: "image/png", failsDownload });
        state.job.lastFrame = frame;
      }
      state.rendered = "done";
    } catch {
      // The emulator may be closing under a render; a job that cannot render reports failure when read.
      state.rendered = "failed";
    }
  }
}
