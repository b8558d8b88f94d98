import { deleteVoice } from "../../voices/delete.js";
import { getVoice } from "../../voices/get.js";
import { deletedVoiceSchema, voiceSchema } from "../response-schemas.js";
import { defineOperation } from "../define.js";
import { voiceId } from "./shared.js";
import { getCreditsOperation, listVoicesOperation, uploadAssetOperation } from "./mirrored.js";

export const ACCOUNT_OPERATIONS = [
  getCreditsOperation,
  listVoicesOperation,
  defineOperation({
    operationId: "getVoice",
    method: "GET",
    path: "/v1/voices/{voice_id}",
    summary: "One voice",
    area: "voices",
    params: voiceId,
    responses: { 200: { description: "The voice", body: { schema: voiceSchema, component: "Voice" } } },
    errors: ["voice_not_found"],
    run: (core, call) => getVoice(core, call.tenantId, call.params.voice_id),
  }),
  defineOperation({
    operationId: "deleteVoice",
    method: "DELETE",
    path: "/v1/voices/{voice_id}",
    summary: "Delete a cloned voice (presets cannot be deleted: 409)",
    area: "voices",
    params: voiceId,
    responses: { 200: { description: "The voice is deleted", body: { schema: deletedVoiceSchema, component: "DeletedVoice" } } },
    errors: ["voice_not_found", "conflict"],
    run: (core, call) => deleteVoice(core, call.tenantId, call.params.voice_id),
  }),
  uploadAssetOperation,
] as const;
