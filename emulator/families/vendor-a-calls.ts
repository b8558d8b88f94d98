import { randomBytes } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { FaultKind } from "../faults.js";
import type { EmulatorContext } from "../vendor-family.js";
import { isRecord, parseJsonBody } from "./raw-json-body.js";
import { controlNameOf } from "./vendor-a-models.js";

// What the vendorA routes share (docs/providers/vendorA.md): Bearer key, vendor-side errors as HTTP 200 with a
// non-zero base_resp.status_code (one table of codes, worded per route), the two transport faults; and for the
// synchronous calls of the music and voice-clone routes, a `data.status` of 2 for finished work and the scripted
// faults answered the way speech answers them.

const FAMILY = "vendorA";
const DEFAULT_RETRY_AFTER_SECONDS = 1;
export const FINISHED = 2;
const UNDOCUMENTED_STATUS = 7;

export interface BaseResponse {
  status_code: number;
  status_msg: string;
}

export const BASE = {
  success: { status_code: 0, status_msg: "success" },
  rateLimited: { status_code: 1002, status_msg: "rate limit exceeded" },
  authenticationFailed: { status_code: 1004, status_msg: "authentication failed" },
} satisfies Record<string, BaseResponse>;

export function invalidParams(detail: string): BaseResponse {
  return { status_code: 2013, status_msg: `invalid params, ${detail}` };
}

export function traceId(): string {
  return randomBytes(16).toString("hex");
}

// How one route words its faults: what its engine is, what its input and output are called.
export interface FaultWording {
  internalError: string;
  inputFlagged: string;
  outputBlocked: string;
}

// The family's base_resp values in one route's words.
export function vendorAStatus(wording: FaultWording) {
  return {
    ...BASE,
    internalError: { status_code: 1000, status_msg: `internal error: ${wording.internalError}` },
    inputFlagged: { status_code: 1026, status_msg: `input new_sensitive: ${wording.inputFlagged}` },
    outputBlocked: { status_code: 1027, status_msg: `output new_sensitive: ${wording.outputBlocked}` },
  } satisfies Record<string, BaseResponse>;
}

// The faults every route answers alike: a 500 with the route's internal error, a 429 with Retry-After.
export function sendHttpFault(
  kind: "http_500" | "http_429",
  retryAfterSeconds: number | undefined,
  reply: FastifyReply,
  internalError: BaseResponse,
) {
  if (kind === "http_500") return reply.code(500).send({ base_resp: internalError });
  return reply
    .code(429)
    .header("retry-after", String(retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS))
    .send({ base_resp: BASE.rateLimited });
}

// A call to go on with: its body, and whether the bad_download fault makes the files it produces undownloadable.
export type Received<T> = { body: T; failsDownload: boolean } | null;

// Records the call, checks key and body, and takes the next scripted fault for the model (by its control name,
// vendor-a-models.ts). Returns null when the
// call has been answered already (refused, faulted or left hanging).
export async function receiveCall<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  context: EmulatorContext,
  schema: z.ZodType<T>,
  wording: FaultWording,
  // The model the call is logged and faulted under when it is not the body's `model` (voice clone's `model` is
  // the speech model of its preview; the call is the clone model's).
  callModel?: string,
): Promise<Received<T>> {
  const raw = parseJsonBody(request.body);
  const model = callModel ?? (isRecord(raw) && typeof raw.model === "string" ? controlNameOf(raw.model) : null);
  context.requests.record({ family: FAMILY, method: request.method, path: request.url.split("?")[0] ?? request.url, model, at: new Date().toISOString() });
  if (context.latencyMs > 0) await delay(context.latencyMs);
  if (!/^Bearer\s+\S+/i.test(request.headers.authorization ?? "")) {
    await reply.code(401).send({ base_resp: BASE.authenticationFailed });
    return null;
  }
  if (raw === undefined) {
    await reply.send({ base_resp: invalidParams("body is not valid JSON") });
    return null;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    await reply.send({ base_resp: invalidParams(`${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`) });
    return null;
  }
  const fault = context.faults.take(FAMILY, model);
  if (fault?.kind === "hang") {
    // Fastify is started with forceCloseConnections, so closing the emulator ends this socket.
    reply.hijack();
    return null;
  }
  if (fault !== undefined && fault.kind !== "bad_download") {
    await sendFault(fault.kind, fault.retryAfterSeconds, reply, wording);
    return null;
  }
  return { body: parsed.data, failsDownload: fault?.kind === "bad_download" };
}

function sendFault(
  kind: Exclude<FaultKind, "hang" | "bad_download">,
  retryAfterSeconds: number | undefined,
  reply: FastifyReply,
  wording: FaultWording,
) {
  const status = vendorAStatus(wording);
  switch (kind) {
    case "http_500":
    case "http_429":
      return sendHttpFault(kind, retryAfterSeconds, reply, status.internalError);
    case "safety":
      return reply.send({ base_resp: status.inputFlagged, trace_id: traceId() });
    case "content_filtered":
      return reply.send({ base_resp: status.outputBlocked, trace_id: traceId() });
    case "unknown_status":
      return reply.send({ base_resp: BASE.success, data: { status: UNDOCUMENTED_STATUS }, trace_id: traceId() });
    case "malformed":
      return reply.type("application/json").send('{"data": {"status": ');
  }
}

// Where the family's /v1/files/{file_id} route serves a generated file.
export function fileUrl(request: FastifyRequest, fileId: string): string {
  return `${request.protocol}://${request.host}/${FAMILY}/v1/files/${fileId}`;
}
