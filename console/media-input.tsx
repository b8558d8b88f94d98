import { useState } from "preact/hooks";
import { api, operationRoute, ServiceError } from "./api";
import { previewOf, rememberPreview, type MediaPreview } from "./media-previews";
import { mediaKindOf } from "./schema";
import type { UploadedAsset } from "./types";
import { Audio, Video } from "./media-element";

// A media input ({type: "artifact", artifact_id} or {type: "url", url}): a file dropped on it, pasted into it or
// picked, uploaded at once as an artifact (POST /v1/assets), or an HTTPS URL the service fetches itself. What is
// chosen shows as the picture or player it is. The file input itself takes the focus (visually hidden inside its
// drop zone), so a keyboard reaches the picker, and a paste while it has the focus is taken as the file.

type MediaValue = { type: "artifact"; artifact_id: string } | { type: "url"; url: string } | undefined;

export interface MediaInputProps {
  id: string;
  name: string;
  value: unknown;
  onChange(value: unknown): void;
  describedBy: string;
  invalid: boolean;
}

const ARTICLED = { image: "an image", video: "a video", audio: "an audio file", file: "a file" };

function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error ?? new Error("the file could not be read"));
    reader.readAsDataURL(file);
  });
}

export async function uploadFile(file: File): Promise<UploadedAsset> {
  const body = { content_base64: await base64Of(file), filename: file.name || undefined, content_type: file.type || undefined };
  const asset = await api<UploadedAsset>(operationRoute("uploadAsset"), { body });
  rememberPreview(asset.artifact_id, { url: asset.url, kind: asset.kind, label: `${asset.filename ?? "upload"} · ${Math.ceil(asset.byte_size / 1024)} KiB` });
  return asset;
}

export function PreviewMedia({ preview }: { preview: MediaPreview }) {
  if (preview.kind === "image") return <img class="preview" src={preview.url} alt={preview.label} />;
  if (preview.kind === "video") return <Video class="preview" src={preview.url} controls muted preload="metadata" aria-label={preview.label} />;
  return <Audio src={preview.url} controls preload="metadata" aria-label={preview.label} />;
}

export function MediaInput({ id, name, value, onChange, describedBy, invalid }: MediaInputProps) {
  const current = value as MediaValue;
  const kind = mediaKindOf(name);
  const [byUrl, setByUrl] = useState(current?.type === "url");
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  const take = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setRefusal(null);
    try {
      const asset = await uploadFile(file);
      onChange({ type: "artifact", artifact_id: asset.artifact_id });
    } catch (error) {
      setRefusal(error instanceof ServiceError ? `${error.code}: ${error.message}` : String(error));
      onChange(undefined);
    } finally {
      setBusy(false);
    }
  };

  const preview = current?.type === "artifact" ? previewOf(current.artifact_id) : undefined;
  const noun = kind ?? "file";
  if (current?.type === "artifact") {
    return (
      <div class="media-input chosen">
        {preview ? <PreviewMedia preview={preview} /> : null}
        <p class="hint">
          {preview?.label ?? "Artifact"} · <code>{current.artifact_id}</code>
        </p>
        <button type="button" class="secondary" id={id} aria-describedby={describedBy} aria-invalid={invalid} onClick={() => onChange(undefined)}>
          Remove {noun}
        </button>
      </div>
    );
  }
  return (
    <div class="media-input">
      {byUrl ? (
        <input
          id={id}
          type="url"
          placeholder="https://…"
          value={current?.type === "url" ? current.url : ""}
          onInput={(event) => {
            const url = (event.currentTarget as HTMLInputElement).value.trim();
            onChange(url ? { type: "url", url } : undefined);
          }}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        />
      ) : (
        <label
          class={`drop-zone${dragging ? " dragging" : ""}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            void take(e.dataTransfer?.files[0]);
          }}
          onPaste={(e) => {
            const file = e.clipboardData?.files[0];
            if (file) {
              e.preventDefault();
              void take(file);
            }
          }}
        >
          <input
            id={id}
            class="file-picker"
            type="file"
            accept={kind ? `${kind}/*` : undefined}
            onChange={(e) => void take((e.currentTarget as HTMLInputElement).files?.[0])}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
          <span>Drop {ARTICLED[kind ?? "file"]} here, paste one, or choose a file</span>
        </label>
      )}
      <button type="button" class="link" onClick={() => setByUrl(!byUrl)}>
        {byUrl ? `Upload a ${noun} instead` : "Or give a URL"}
      </button>
      {busy && (
        <p class="hint" role="status">
          Uploading…
        </p>
      )}
      {refusal && (
        <p class="error-text" role="alert">
          Upload refused: {refusal}
        </p>
      )}
    </div>
  );
}
