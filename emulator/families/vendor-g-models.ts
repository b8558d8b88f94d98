// What the emulated vendorG knows on its own (docs/providers/vendorG.md): the model ids of its Generate Music
// reference and the limits it states for each. Nothing here comes from the service's catalog or its id map, so
// the emulator disagrees with the service where the service is wrong about the vendor.

export interface VendorGModelLimits {
  // `prompt` in custom mode, where it holds the lyrics
  customPromptCharacters: number;
  styleCharacters: number;
  titleCharacters: number;
  // The uploaded audio of upload-cover.
  uploadSeconds: number;
}

const V4_5_FAMILY: VendorGModelLimits = { customPromptCharacters: 5000, styleCharacters: 1000, titleCharacters: 100, uploadSeconds: 480 };

export const MODEL_LIMITS: Readonly<Record<string, VendorGModelLimits>> = {
  V4: { customPromptCharacters: 3000, styleCharacters: 200, titleCharacters: 80, uploadSeconds: 480 },
  V4_5: V4_5_FAMILY,
  V4_5PLUS: V4_5_FAMILY,
  V4_5ALL: { ...V4_5_FAMILY, titleCharacters: 80, uploadSeconds: 60 },
  V5: V4_5_FAMILY,
  V5_5: V4_5_FAMILY,
};

// Non-custom mode: the prompt only describes the song, whatever the model.
export const NON_CUSTOM_PROMPT_CHARACTERS = 500;
// "Each request returns exactly 2 songs."
export const TRACKS_PER_TASK = 2;
// The balance GET /api/v1/generate/credit answers; the reference does not say what a task costs, so it stays.
export const CREDIT_BALANCE = 1000;
// The reference names no formats for the uploaded audio; these are the ones this stand-in decodes.
export const UPLOAD_FORMATS = ["mp3", "wav", "m4a", "ogg"] as const;

// The name the emulator's control routes (scripted faults, the request log) give each vendor model: the service's
// neutral id, which tests script faults with. A call naming another model is logged under the name it sent.
const CONTROL_NAMES: Readonly<Record<string, string>> = { V5: "vendorG-6" };

export function controlNameOf(vendorModel: string): string {
  return CONTROL_NAMES[vendorModel] ?? vendorModel;
}
