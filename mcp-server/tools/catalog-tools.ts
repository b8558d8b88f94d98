import { z } from "zod";
import { catalog, findCapability, listVoicesPage, MIRRORED_OPERATIONS, scopeFor, ServiceError } from "../../core/index.js";
import { jsonSchemaOf, parseArguments } from "./json-schema.js";
import { OUTPUT_SCHEMAS } from "./output-schemas.js";
import { READ_ONLY, type ToolDefinition } from "./types.js";

// GET /v1/voices' query, with its rules and texts.
const voicesInput = MIRRORED_OPERATIONS.listVoices.query;

const modelsInput = z
  .object({
    capability: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("Only models of this capability, e.g. text_to_speech (a task's `capability`; svc.tasks.quote lists them all)."),
  })
  .strict();

// The read-only catalog: voices to speak with and models to choose from.
export function catalogTools(): ToolDefinition[] {
  return [
    {
      name: "svc.voices.list",
      title: "List voices",
      description:
        "Preset voices, then your cloned voices (newest first), each with the speech models it works on. Pass a " +
        "voice_id as `voice` to svc.speech.synthesize.",
      inputSchema: jsonSchemaOf(voicesInput, "input"),
      outputSchema: OUTPUT_SCHEMAS.voiceList,
      annotations: READ_ONLY,
      // The speech tool sends agents here for voice ids, so a grant that may synthesize speech may list voices.
      scopes: [scopeFor("voices", "read"), scopeFor("speech", "write")],
      async run(args, call) {
        const input = parseArguments(voicesInput, args);
        return { structured: await listVoicesPage(call.core, call.grant.tenantId, input, "arguments") };
      },
    },
    {
      name: "svc.models.list",
      title: "List models",
      description:
        "The live models and the capabilities each serves. `model: auto` picks one for you; a named model is used " +
        "exactly as asked or refused.",
      inputSchema: jsonSchemaOf(modelsInput, "input"),
      outputSchema: OUTPUT_SCHEMAS.modelList,
      annotations: READ_ONLY,
      scopes: [scopeFor("catalog", "read")],
      async run(args, call) {
        const input = parseArguments(modelsInput, args);
        if (input.capability !== undefined && !findCapability(input.capability)) {
          throw new ServiceError("unsupported_capability", `No capability ${input.capability}.`, { param: "/capability" });
        }
        const list = catalog.modelList(call.core.isFamilyLive);
        const data = input.capability ? list.data.filter((m) => m.capabilities.includes(input.capability as string)) : list.data;
        return { structured: { ...list, data } };
      },
    },
  ];
}
