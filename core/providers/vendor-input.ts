import type { CapabilityId, CapabilityInputOf } from "../capabilities/table.js";
import type { MediaInput } from "../contracts/media-input.js";

// The input of a capability as its adapter receives it: the input its schema admitted (defaults filled in), every
// media input replaced by our stored artifact with a signed URL and the facts decoding established
// (core/tasks/media-inputs.ts inputForVendor).

// A media input as core/tasks/media-inputs.ts hands it to adapters.
export interface ResolvedMediaInput {
  url: string;
  kind: "image" | "video" | "audio";
  format: string;
  width: number | null;
  height: number | null;
  duration_seconds: number;
  has_audio: boolean;
}

type ArtifactForm = Extract<MediaInput, { type: "artifact" }>;

// A field is a media input when it takes the artifact form and nothing a media input would not (a plain string
// field takes no artifact object; a record of strings takes one, but also things no media input is).
type IsMedia<T> = [ArtifactForm] extends [T] ? ([T] extends [MediaInput | undefined] ? true : false) : false;

type AsVendorSees<T> = unknown extends T
  ? T
  : IsMedia<T> extends true
    ? ResolvedMediaInput | Exclude<T, MediaInput>
    : T extends readonly (infer Item)[]
      ? AsVendorSees<Item>[]
      : T extends object
        ? { [K in keyof T]: AsVendorSees<T[K]> }
        : T;

export type VendorInputOf<Id extends CapabilityId> = AsVendorSees<CapabilityInputOf<Id>>;
