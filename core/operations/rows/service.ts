import { z } from "zod";
import { livenessSchema, readinessSchema } from "../response-schemas.js";
import { defineOperation } from "../define.js";

// Answered without an API key: signed downloads, preset voices' stock samples (the same for everyone, bought by
// the operator once: core/voices/stock-sample.ts), the service's pages and its probes.
export const SERVICE_OPERATIONS = [
  defineOperation({
    operationId: "downloadArtifact",
    method: "GET",
    path: "/v1/artifacts/{artifact_id}/content",
    summary: "Download an artifact through its signed URL (no API key: the signature is the credential)",
    area: null,
    params: z.object({ artifact_id: z.string().describe("The artifact's id (art_…).") }),
    query: z.object({
      expires: z.string().describe("Expiry, Unix seconds, as in the signed URL."),
      signature: z.string().describe("The URL's signature, as in the signed URL."),
    }),
    responses: {
      200: { description: "The bytes", body: { mediaType: "application/octet-stream", text: "The artifact's bytes." } },
      206: { description: "The requested range", body: { mediaType: "application/octet-stream", text: "The bytes of the range." } },
      304: { description: "Not modified (If-None-Match or If-Modified-Since)" },
    },
    errors: ["forbidden", "artifact_not_found"],
  }),
  defineOperation({
    operationId: "getVoiceSample",
    method: "GET",
    path: "/v1/voices/{voice_id}/sample",
    summary:
      "A preset voice's stock sample, free: a short sentence spoken with it, made once by the service and kept (no task, no charge). A cloned voice's sample is its clone task's preview artifact",
    area: null,
    params: z.object({ voice_id: z.string().describe("A preset voice's id (GET /v1/voices).") }),
    responses: {
      200: { description: "The sample's audio", body: { mediaType: "audio/mpeg", text: "The sample's bytes." } },
      206: { description: "The requested range", body: { mediaType: "audio/mpeg", text: "The bytes of the range." } },
      304: { description: "Not modified (If-None-Match or If-Modified-Since)" },
    },
    errors: ["voice_not_found", "model_unavailable", "model_request_failed"],
  }),
  defineOperation({
    operationId: "getOpenApiDocument",
    kind: "page",
    method: "GET",
    path: "/v1/openapi.json",
    summary: "This document",
    area: null,
    responses: { 200: { description: "This document", body: { mediaType: "application/json", text: "The OpenAPI 3.1 document." } } },
    errors: [],
  }),
  defineOperation({
    operationId: "getApiReference",
    kind: "page",
    method: "GET",
    path: "/v1/docs",
    summary: "Readable API reference",
    area: null,
    responses: { 200: { description: "The reference page", body: { mediaType: "text/html", text: "An HTML page." } } },
    errors: [],
  }),
  defineOperation({
    operationId: "getConsole",
    kind: "page",
    method: "GET",
    path: "/",
    summary: "The web console: try every capability, see and play the results, manage credits, keys and voices with your API key",
    area: null,
    responses: {
      200: { description: "The console's page", body: { mediaType: "text/html", text: "An HTML page." } },
      304: { description: "Not modified (If-None-Match)" },
      503: { description: "The console is not built (npm run build)", body: { mediaType: "text/plain", text: "What to run." } },
    },
    errors: [],
  }),
  defineOperation({
    operationId: "getConsoleFile",
    kind: "page",
    method: "GET",
    path: "/console/{file}",
    summary: "A file of the web console (its script or style sheet)",
    area: null,
    params: z.object({ file: z.string().describe("The file's name, as the console's page links it.") }),
    responses: {
      200: { description: "The file", body: { mediaType: "text/plain", text: "JavaScript, CSS or a source map." } },
      304: { description: "Not modified (If-None-Match)" },
    },
    errors: ["not_found"],
  }),
  defineOperation({
    operationId: "getLiveness",
    kind: "probe",
    method: "GET",
    path: "/healthz",
    summary: "Liveness",
    area: null,
    responses: { 200: { description: "The process runs", body: { schema: livenessSchema, component: "Liveness" } } },
    errors: [],
  }),
  defineOperation({
    operationId: "getReadiness",
    kind: "probe",
    method: "GET",
    path: "/readyz",
    summary: "Readiness: the database answers, is migrated, and a worker is taking jobs (503 with the failing check otherwise)",
    area: null,
    responses: {
      200: { description: "Ready", body: { schema: readinessSchema, component: "Readiness" } },
      503: { description: "Not ready: the failing check", body: { schema: readinessSchema, component: "Readiness" } },
    },
    errors: [],
  }),
  defineOperation({
    operationId: "getMetrics",
    kind: "probe",
    method: "GET",
    path: "/metrics",
    summary: "Prometheus metrics of this replica",
    area: null,
    responses: { 200: { description: "Prometheus text exposition", body: { mediaType: "text/plain", text: "Prometheus text format." } } },
    errors: [],
  }),
] as const;
