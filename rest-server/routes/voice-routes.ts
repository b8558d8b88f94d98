import type { FastifyInstance } from "fastify";
import { deleteVoice, getVoice, listVoicesPage, type Core } from "../../core/index.js";
import { principalOf, requireAuth } from "../plugins/auth.js";

// Reading and deleting voices; creating one (POST /v1/voices, a voice-clone task) is a capability route.
export function registerVoiceRoutes(app: FastifyInstance, core: Core): void {
  const auth = requireAuth(core, "voices");

  app.get("/v1/voices", { onRequest: auth }, async (request) =>
    listVoicesPage(core, principalOf(request).tenantId, request.query as Record<string, unknown>),
  );

  app.get<{ Params: { voice_id: string } }>("/v1/voices/:voice_id", { onRequest: auth }, async (request) =>
    getVoice(core, principalOf(request).tenantId, request.params.voice_id),
  );

  app.delete<{ Params: { voice_id: string } }>("/v1/voices/:voice_id", { onRequest: auth }, async (request) =>
    deleteVoice(core, principalOf(request).tenantId, request.params.voice_id),
  );
}
