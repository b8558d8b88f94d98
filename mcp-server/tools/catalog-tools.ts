import { randomUUID } from "node:crypto";
import { z } from "zod";
import { catalog, listVoicesPage, MIRRORED_OPERATIONS, scopeFor, ServiceError, type Capability, type ToolLimits } from "../../core/index.js";
import { jsonSchemaOf, parseArguments } from "./json-schema.js";
import { mirroredTool } from "./mirrored-tool.js";
import { capabilityNamed, fullInputSchemaOf } from "./task-creation-tools.js";
import { namesOf, styledNames, type ToolNameStyle } from "./tool-names.js";
import { READ_ONLY, type ToolDefinition } from "./types.js";

const { listVoices: voicesOperation, listModels: modelsOperation } = MIRRORED_OPERATIONS;

// svc.models.list answers what GET /v1/models, /v1/catalog/models/{model} and /v1/catalog/capabilities/{capability}
// answer apart, in one call with arguments of its own, so it is written here; svc.voices.list takes GET /v1/voices'
// query, and is generated from its row.
const modelsInput = z
  .object({
    capability: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("A capability (text_to_video) or its tool's name: its models, and every argument of the tool."),
    model: z.string().min(1).max(128).optional().describe("One model, with its limits and prices."),
  })
  .strict();

type CatalogState = Parameters<typeof catalog.modelDetail>[1];

// One model's card; a name the catalog does not hold is refused as a create would refuse it.
function modelCard(model: string, state: CatalogState) {
  try {
    return catalog.modelDetail(model, state);
  } catch (error) {
    if (error instanceof ServiceError && error.code === "not_found") {
      throw new ServiceError("unsupported_model", `No model ${model}; call without model to list them.`, { param: "/model" });
    }
    throw error;
  }
}

// What tools/list leaves out of a task-creating tool: every argument with its type, limits and default, and an
// example call; named, and naming other tools, as the connection lists them.
function toolOf(capability: Capability, style: ToolNameStyle) {
  return {
    name: namesOf(capability.tool.name, style)[0],
    capability: capability.id,
    billing_mode: capability.billingMode,
    arguments: JSON.parse(styledNames(JSON.stringify(fullInputSchemaOf(capability)), style)) as unknown,
    example: { client_request_id: randomUUID(), ...capability.example },
  };
}

// The read-only catalog: voices to speak with, and models to choose from with what the tools that run on them take.
export function catalogTools(limits: ToolLimits): ToolDefinition[] {
  return [
    mirroredTool(voicesOperation, limits, {
      annotations: READ_ONLY,
      // The speech tool sends agents here for voice ids, so a grant that may synthesize speech may list voices.
      alsoGrantedBy: [scopeFor("speech", "write")],
      async run(input, call) {
        return { structured: await listVoicesPage(call.core, call.grant.tenantId, input, "arguments") };
      },
    }),
    {
      name: modelsOperation.tool.name,
      title: "List models",
      description:
        "The live models and the capabilities each serves (`model: auto` picks one). With capability: also every " +
        "argument of its tool, typed, with limits, and an example. With model: its limits and prices.",
      inputSchema: jsonSchemaOf(modelsInput, "input"),
      annotations: READ_ONLY,
      scopes: [scopeFor("catalog", "read")],
      async run(args, call) {
        const input = parseArguments(modelsInput, args);
        const capability = input.capability === undefined ? undefined : capabilityNamed(input.capability, "/capability");
        const state = await catalog.catalogState(call.core);
        const list = catalog.modelList(state);
        let data: unknown[] = list.data.filter((m) => !capability || m.capabilities.includes(capability.id));
        if (input.model !== undefined) {
          const card = modelCard(input.model, state);
          data = !capability || card.capabilities.includes(capability.id) ? [card] : [];
        }
        return { structured: { ...list, data, ...(capability ? { tool: toolOf(capability, call.toolNames) } : {}) } };
      },
    },
  ];
}
