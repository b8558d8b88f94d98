import { duration } from "./results";
import type { Task } from "./types";
import { VideoPoster } from "./video-poster";

// A task at a glance, for lists: its first image, the first frame of its video (a poster), its audio's length, the
// start of its text; or its progress while it runs and its failure once it failed.

export function TaskThumbnail({ task }: { task: Task }) {
  const artifacts = task.output?.artifacts ?? [];
  const image = artifacts.find((a) => a.kind === "image" && a.role !== "last_frame") ?? artifacts.find((a) => a.kind === "image");
  const video = artifacts.find((a) => a.kind === "video");
  const audio = artifacts.find((a) => a.kind === "audio");
  if (video) return <VideoPoster artifactId={video.artifact_id} url={video.url} label={`Video, ${duration(video.duration_seconds)}`} />;
  if (image) return <img class="thumb" src={image.url} alt="" loading="lazy" />;
  if (audio) {
    return (
      <span class="thumb glyph" aria-label={`Audio, ${duration(audio.duration_seconds)}`}>
        ♪<small>{duration(audio.duration_seconds)}</small>
      </span>
    );
  }
  if (task.output?.text) return <span class="thumb glyph text-glyph">{task.output.text.slice(0, 60)}</span>;
  if (task.status === "queued" || task.status === "running") {
    return (
      <span class="thumb glyph" aria-label={`${task.status}, ${task.progress?.percent ?? 0}%`}>
        {task.progress?.percent ?? 0}%
      </span>
    );
  }
  return <span class="thumb glyph">{task.status === "failed" ? "!" : "–"}</span>;
}
