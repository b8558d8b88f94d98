import { MIRRORED_OPERATIONS, scopeFor, uploadAsset } from "../../core/index.js";
import { jsonSchemaOf } from "./json-schema.js";
import { artifactLink } from "./task-outcome.js";
import type { ToolDefinition } from "./types.js";

// Local media into an artifact reference: the arguments are POST /v1/assets' body, validated by core.
export function assetTools(maxBytes: number): ToolDefinition[] {
  const operation = MIRRORED_OPERATIONS.uploadAsset;
  return [
    {
      name: operation.tool,
      title: "Upload media",
      description:
        `Store a file (base64, at most ${maxBytes} bytes decoded) as your artifact; pass {type: "artifact", artifact_id} ` +
        "as any media input (image, video, voice sample, reference audio).",
      inputSchema: jsonSchemaOf(operation.body.schema, "input"),
      // Each upload stores a new artifact, so repeating one is not a no-op.
      annotations: { destructiveHint: false, openWorldHint: false },
      scopes: [scopeFor("assets", "write")],
      async run(args, call) {
        const asset = await uploadAsset(call.core, call.grant.tenantId, args);
        return { structured: asset, content: [artifactLink({ ...asset, kind: asset.kind })] };
      },
    },
  ];
}
