// How a media input already chosen looks: the artifact's URL and kind, remembered by artifact id for this page
// load, so an upload, or a result handed to another capability ("use as input"), shows as the picture or player it
// is rather than as an id. A request body holds only {type: "artifact", artifact_id}.

export interface MediaPreview {
  url: string;
  kind: string;
  label: string;
}

const previews = new Map<string, MediaPreview>();

export function rememberPreview(artifactId: string, preview: MediaPreview): void {
  previews.set(artifactId, preview);
}

export function previewOf(artifactId: string): MediaPreview | undefined {
  return previews.get(artifactId);
}
