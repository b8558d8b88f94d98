import { MIRRORED_OPERATIONS, uploadAsset, type ToolLimits } from "../../core/index.js";
import { mirroredTool } from "./mirrored-tool.js";
import { artifactLink } from "./task-outcome.js";
import type { ToolDefinition } from "./types.js";

// Local media into an artifact reference: the arguments are POST /v1/assets' body, validated by core.
export function assetTools(limits: ToolLimits): ToolDefinition[] {
  return [
    mirroredTool(MIRRORED_OPERATIONS.uploadAsset, limits, {
      // Each upload stores a new artifact, so repeating one is not a no-op.
      annotations: { destructiveHint: false, openWorldHint: false },
      async run(input, call) {
        const asset = await uploadAsset(call.core, call.grant.tenantId, input);
        return { structured: asset, content: [artifactLink({ ...asset, kind: asset.kind })] };
      },
    }),
  ];
}
