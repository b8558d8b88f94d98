import type { VideoOutputFormat } from "../../core/contracts/video-options.js";
import type { ProviderRequestOf } from "../../core/providers/served-capabilities.js";
import type { VendorInputOf } from "../../core/providers/vendor-input.js";
import type { VideoJobCapability } from "../../core/providers/video-job.js";

// Typed video requests for the contract tests that call a family's video functions directly, as the worker hands
// them over: the capability's admitted input with its media resolved.

// A video input as a test writes it: without the fields admission fills in, the model (the request's) and the
// output format (mp4 unless given).
type WrittenInput<Id extends VideoJobCapability> = Omit<VendorInputOf<Id>, "model" | "output_format"> & { output_format?: VideoOutputFormat };

type WrittenInputs = { [Id in VideoJobCapability]: WrittenInput<Id> };
type Requests = { [Id in VideoJobCapability]: ProviderRequestOf<Id> };
type Builders = { [Id in VideoJobCapability]: (model: string, input: WrittenInputs[Id]) => Requests[Id] };

const TASK_ID = "task_contract";

const BUILDERS: Builders = {
  text_to_video: (model, input) => ({ taskId: TASK_ID, capability: "text_to_video", model, input: { model, output_format: "mp4", ...input } }),
  image_to_video: (model, input) => ({ taskId: TASK_ID, capability: "image_to_video", model, input: { model, output_format: "mp4", ...input } }),
  frames_to_video: (model, input) => ({ taskId: TASK_ID, capability: "frames_to_video", model, input: { model, output_format: "mp4", ...input } }),
  reference_to_video: (model, input) => ({ taskId: TASK_ID, capability: "reference_to_video", model, input: { model, output_format: "mp4", ...input } }),
  video_edit: (model, input) => ({ taskId: TASK_ID, capability: "video_edit", model, input: { model, output_format: "mp4", ...input } }),
  video_extend: (model, input) => ({ taskId: TASK_ID, capability: "video_extend", model, input: { model, output_format: "mp4", ...input } }),
};

export function videoRequest<Id extends VideoJobCapability>(capability: Id, model: string, input: WrittenInputs[Id]): Requests[Id] {
  const build: Builders[Id] = BUILDERS[capability];
  return build(model, input);
}
