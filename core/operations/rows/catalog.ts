import { z } from "zod";
import { capabilityDetail, capabilityList, catalogState, modelDetail, modelList } from "../../published-catalog/cards.js";
import { capabilityCardSchema, capabilityListSchema, modelCardSchema, modelListSchema } from "../response-schemas.js";
import { defineOperation } from "../define.js";
import { listModelsOperation } from "./mirrored.js";

export const CATALOG_OPERATIONS = [
  listModelsOperation,
  defineOperation({
    operationId: "listCatalogModels",
    method: "GET",
    path: "/v1/catalog/models",
    summary: "Same list as /v1/models",
    area: "catalog",
    responses: { 200: { description: "The live models", body: { schema: modelListSchema, component: "ModelList" } } },
    errors: [],
    run: async (core) => modelList(await catalogState(core)),
  }),
  defineOperation({
    operationId: "getCatalogModel",
    method: "GET",
    path: "/v1/catalog/models/{model}",
    summary: "One model's card: constraints and prices",
    area: "catalog",
    params: z.object({ model: z.string().describe("The model id.") }),
    responses: { 200: { description: "The model's card", body: { schema: modelCardSchema, component: "ModelCard" } } },
    errors: ["not_found"],
    run: async (core, call) => modelDetail(call.params.model, await catalogState(core)),
  }),
  defineOperation({
    operationId: "listCatalogCapabilities",
    method: "GET",
    path: "/v1/catalog/capabilities",
    summary: "Every capability",
    area: "catalog",
    responses: { 200: { description: "Every capability", body: { schema: capabilityListSchema, component: "CapabilityList" } } },
    errors: [],
    run: async () => capabilityList(),
  }),
  defineOperation({
    operationId: "getCatalogCapability",
    method: "GET",
    path: "/v1/catalog/capabilities/{capability}",
    summary: "One capability's card: input schema and model cards",
    area: "catalog",
    params: z.object({ capability: z.string().describe("The capability id.") }),
    responses: { 200: { description: "The capability's card", body: { schema: capabilityCardSchema, component: "CapabilityCard" } } },
    errors: ["not_found"],
    run: async (core, call) => capabilityDetail(call.params.capability, await catalogState(core)),
  }),
] as const;
