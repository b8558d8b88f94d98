import type { FastifyInstance } from "fastify";

// The Gemini API's model listing, `GET /v1beta/models` (https://ai.google.dev/api/models#method:-models.list),
// as the emulated vendorD answers it: the Veo models it serves, each with the one generation method they take.
// `svc vendors check vendorD` compares this listing with the service's vendor model ids. The key is checked by the
// family's own hook (vendor-d.ts).

const LISTED_MODELS = [
  { id: "veo-3.1-generate-preview", displayName: "Veo 3.1" },
  { id: "veo-3.1-fast-generate-preview", displayName: "Veo 3.1 Fast" },
] as const;

export function registerVendorDModelList(app: FastifyInstance): void {
  app.get("/v1beta/models", (_request, reply) =>
    reply.send({
      models: LISTED_MODELS.map((model) => ({
        name: `models/${model.id}`,
        version: "3.1",
        displayName: model.displayName,
        description: `${model.displayName}, video generation`,
        supportedGenerationMethods: ["predictLongRunning"],
      })),
    }),
  );
}
