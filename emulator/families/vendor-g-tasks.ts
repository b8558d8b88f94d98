import { randomUUID } from "node:crypto";
import type { FileStore, StoredFile } from "../file-store.js";
import { composeSong, recordTakeToFile, type SongRequest, type TakeEncoding } from "../media/music-render.js";
import type { JobFault } from "../video-jobs.js";

// vendorG's music tasks (docs/providers/vendorG.md): every task makes two tracks, variations of one request.
// A task moves on one stage each time it is read (TEXT_SUCCESS once its lyrics are written, FIRST_SUCCESS once
// the first track can be downloaded, SUCCESS once both can), so a poller sees each stage whatever its rate.
// A prompt refused for its words (the safety fault) reads SENSITIVE_WORD_ERROR before anything is written.

export type MusicTaskStatus =
  | "PENDING"
  | "TEXT_SUCCESS"
  | "FIRST_SUCCESS"
  | "SUCCESS"
  | "GENERATE_AUDIO_FAILED"
  | "SENSITIVE_WORD_ERROR"
  // Never documented: what the unknown_status fault makes a task read.
  | "ARCHIVED";

// What a task can be scripted to do: the job faults, or be refused for its words.
export type MusicTaskFault = JobFault | "safety";

export interface MusicTrack {
  id: string;
  title: string;
  tags: string;
  lyrics: string | null;
  file: StoredFile | null;
  durationSeconds: number | null;
}

export interface MusicTask {
  id: string;
  // The submission as the vendor keeps it, answered as record-info's `param`.
  param: string;
  status: MusicTaskStatus;
  // Whether its lyrics and titles were written (TEXT_SUCCESS was reached): record-info then lists its tracks.
  written: boolean;
  tracks: MusicTrack[];
}

interface TaskState {
  task: MusicTask;
  fault: MusicTaskFault | undefined;
  reads: number;
  rendering: "pending" | "done" | "failed";
}

export interface MusicTaskRequest {
  param: string;
  trackCount: number;
  title: string;
  tags: string;
  song: SongRequest;
  encoding: TakeEncoding;
}

const OPEN_STATUSES: readonly MusicTaskStatus[] = ["PENDING", "TEXT_SUCCESS", "FIRST_SUCCESS"];
// Reads a task needs before it can show SUCCESS: one per stage.
const READS_TO_SUCCEED = 3;

function nextStatus(state: TaskState): MusicTaskStatus {
  const { task, fault } = state;
  if (fault === "hang") return task.status;
  if (fault === "unknown_status") return "ARCHIVED";
  if (fault === "safety") return "SENSITIVE_WORD_ERROR";
  if (state.reads === 1) return "TEXT_SUCCESS";
  if (fault === "content_filtered") return "SENSITIVE_WORD_ERROR";
  if (state.rendering === "failed") return "GENERATE_AUDIO_FAILED";
  if (state.reads >= READS_TO_SUCCEED && state.rendering === "done") return "SUCCESS";
  return task.tracks[0]?.file ? "FIRST_SUCCESS" : task.status;
}

export class MusicTaskBoard {
  private readonly tasks = new Map<string, TaskState>();

  constructor(private readonly files: FileStore) {}

  submit(request: MusicTaskRequest, fault: MusicTaskFault | undefined): MusicTask {
    const task: MusicTask = {
      id: randomUUID().replaceAll("-", ""),
      param: request.param,
      status: "PENDING",
      written: false,
      tracks: Array.from({ length: request.trackCount }, () => ({
        id: randomUUID(),
        title: request.title,
        tags: request.tags,
        lyrics: request.song.lyrics,
        file: null,
        durationSeconds: null,
      })),
    };
    const state: TaskState = { task, fault, reads: 0, rendering: "pending" };
    this.tasks.set(task.id, state);
    if (fault === undefined || fault === "bad_download") void this.render(state, request);
    return task;
  }

  // The task as a status read sees it; the read moves it on by one stage when its work allows.
  read(id: string): MusicTask | undefined {
    const state = this.tasks.get(id);
    if (state === undefined) return undefined;
    if (!OPEN_STATUSES.includes(state.task.status)) return state.task;
    state.reads += 1;
    state.task.status = nextStatus(state);
    if (state.task.status === "TEXT_SUCCESS") state.task.written = true;
    return state.task;
  }

  private async render(state: TaskState, request: MusicTaskRequest): Promise<void> {
    try {
      // One song, sung once; each track is a take of it in another key.
      const song = await composeSong(request.song);
      for (const [variation, track] of state.task.tracks.entries()) {
        const { file } = await this.files.save((path) => recordTakeToFile(song, variation, request.encoding, path), {
          contentType: "audio/mpeg",
          failsDownload: state.fault === "bad_download",
        });
        track.file = file;
        track.durationSeconds = song.durationSeconds;
      }
      state.rendering = "done";
    } catch {
      // The emulator may be closing under a render; a task that cannot render reports failure when read.
      state.rendering = "failed";
    }
  }
}
