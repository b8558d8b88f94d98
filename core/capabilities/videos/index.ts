import { videoEditCapability } from "./edit.js";
import { videoExtendCapability } from "./extend.js";
import { framesToVideoCapability } from "./frames-to-video.js";
import { imageToVideoCapability } from "./image-to-video.js";
import { promptEnhanceCapability } from "./prompt-enhance.js";
import { referenceToVideoCapability } from "./reference-to-video.js";
import { videoResponsesCapability } from "./responses.js";
import { textToVideoCapability } from "./text-to-video.js";

// Video endpoints, in SPEC.md's order: text-, image-, frames- and reference-to-video, edit, extend,
// prompts/enhance, responses (video understanding).
export const VIDEO_CAPABILITIES = [
  textToVideoCapability,
  imageToVideoCapability,
  framesToVideoCapability,
  referenceToVideoCapability,
  videoEditCapability,
  videoExtendCapability,
  promptEnhanceCapability,
  videoResponsesCapability,
] as const;
