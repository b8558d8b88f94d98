import { useState } from "preact/hooks";
import { api, ApiError } from "./api";

// A media input ({type: "artifact", artifact_id} or {type: "url", url}): a file uploaded with POST /v1/assets, or
// an HTTPS URL (or data URI) the service fetches itself.

interface UploadedAsset {
  artifact_id: string;
  kind: string;
  content_type: string;
  byte_size: number;
  filename: string | null;
}

type MediaValue = { type: "artifact"; artifact_id: string } | { type: "url"; url: string } | undefined;

export interface MediaInputProps {
  id: string;
  name: string;
  value: unknown;
  onChange(value: unknown): void;
  describedBy: string;
  invalid: boolean;
}

function acceptFor(name: string): string | undefined {
  if (/image|frame/.test(name)) return "image/*";
  if (/video/.test(name)) return "video/*";
  if (/audio|sample|voice/.test(name)) return "audio/*";
  return undefined;
}

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error ?? new Error("the file could not be read"));
    reader.readAsDataURL(file);
  });
}

export async function uploadFile(file: File): Promise<UploadedAsset> {
  const body = { content_base64: await base64Of(file), filename: file.name || undefined, content_type: file.type || undefined };
  return api<UploadedAsset>("POST", "/v1/assets", { body });
}

export function MediaInput({ id, name, value, onChange, describedBy, invalid }: MediaInputProps) {
  const current = value as MediaValue;
  const [source, setSource] = useState<"upload" | "url">(current?.type === "url" ? "url" : "upload");
  const [uploaded, setUploaded] = useState<UploadedAsset | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onFile = async (event: Event) => {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    if (!file) return;
    setBusy(true);
    setUploadError(null);
    try {
      const asset = await uploadFile(file);
      setUploaded(asset);
      onChange({ type: "artifact", artifact_id: asset.artifact_id });
    } catch (error) {
      setUploadError(error instanceof ApiError ? `${error.body.code}: ${error.body.message}` : String(error));
      onChange(undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="media-input">
      <div class="media-source" role="radiogroup" aria-label={`${name}: source`}>
        <label>
          <input type="radio" name={`${id}-source`} checked={source === "upload"} onChange={() => setSource("upload")} /> Upload a file
        </label>
        <label>
          <input type="radio" name={`${id}-source`} checked={source === "url"} onChange={() => setSource("url")} /> URL
        </label>
      </div>
      {source === "upload" ? (
        <>
          <input id={id} type="file" accept={acceptFor(name)} onChange={onFile} aria-describedby={describedBy} aria-invalid={invalid} />
          {busy && <p role="status">Uploading…</p>}
          {uploadError && <p class="error-text" role="alert">Upload refused: {uploadError}</p>}
          {uploaded && current?.type === "artifact" && (
            <p class="hint" role="status">
              Uploaded {uploaded.filename ?? "file"} as <code>{uploaded.artifact_id}</code> ({uploaded.content_type}, {uploaded.byte_size} bytes)
            </p>
          )}
        </>
      ) : (
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
      )}
    </div>
  );
}
