import type { z } from "zod";
import type { Area } from "../auth/areas.js";
import type { VendorFamily } from "../vendor-families.js";
import type { Fragment } from "../db/one-statement.js";
import type { AdmissionSql, Tx } from "../db/client.js";
import type { FieldFailure } from "../errors/index.js";
import type { CommonCreateInput } from "../contracts/common-create.js";
import type { UsageLine } from "../credits/pricing.js";
import type { MediaFacts } from "../media/slots.js";
import type { KnownRequestInputs } from "../selection/select.js";
import type { ModelLifecycle, Retirement } from "../retirements/retirement.js";

// What a request will cost and why, computed before admission from the request alone.
export interface Quote {
  lines: UsageLine[];
  totalMicro: bigint;
  counters: Partial<Record<UsageCounter, number>>;
}

export type UsageCounter =
  | "input_tokens"
  | "output_tokens"
  | "cache_read_tokens"
  | "cache_creation_tokens"
  | "reasoning_tokens"
  | "image_count"
  | "image_pixels"
  | "video_seconds"
  | "input_video_seconds"
  | "output_video_seconds"
  | "audio_seconds"
  | "characters";

export interface Prepared {
  requestedModel: string;
  resolvedModel: string;
  family: VendorFamily;
  selectionReason: string | null;
  quote: Quote;
  // The resolved model's retirement when it is deprecated: the task is admitted with a warning.
  deprecation: Retirement | null;
}

export interface VoiceLookup {
  // Resolves a voice id visible to the tenant (preset or cloned) to the models it works on, or null.
  findVoice(tenantId: string, voiceId: string): Promise<{ voiceId: string; models: readonly string[] } | null>;
}

export interface PrepareContext extends VoiceLookup {
  tenantId: string;
  isFamilyLive(family: VendorFamily): boolean;
  // The retirements in force and the moment of the request, which selection compares them with.
  lifecycle: ModelLifecycle;
  // The body and the media facts admission has in hand, which selection checks each model's input limits against.
  known: KnownRequestInputs;
}

// "prepaid" (generation): the quote is held and shown as charged at creation, captured on success, refunded
// in full on failure or cancel. "postpaid" (understanding, prompt enhancement): the estimate is held so the
// tenant can pay, but nothing is charged until success, when the measured amount (at most the hold) is captured:
// a postpaid capability names the meters its success re-prices.
export type BillingTerms = { billingMode: "prepaid" } | { billingMode: "postpaid"; postpaidMeters: PostpaidMeters };

// Which usage counter measures each meter of a postpaid capability's quote: on success those lines are re-priced
// from what was really used. A meter not named keeps its quoted quantity.
export type PostpaidMeters = Readonly<Record<string, UsageCounter>>;

// What SPEC.md makes a finished task's `output` of this capability: its `type` is the kind of its first artifact
// ("image", "video", "audio"; the capability's id when it has none) or always the capability's id (music, voice
// clone), and music lists its tracks a second time as `clips[]`.
export interface OutputShape {
  type: "artifact_kind" | "capability_id";
  clips: boolean;
}

// A task as its capability's lifecycle hooks see it: at admission, and once it has ended.
export interface AdmittedTask {
  id: string;
  tenantId: string;
  capability: string;
  resolvedModel: string;
  input: unknown;
  createdAt: Date;
}

export interface EndedTask {
  id: string;
  status: string;
}

// What only some capabilities do around the lifecycle every task shares (a voice clone's voice exists from
// admission and is settled by the task's end), each in the transaction of the step it joins.
export interface CapabilityLifecycle {
  // The write of this capability's tasks among those admitted together: a step of the admission's one write
  // statement (core/db/one-statement.ts), never sent on its own.
  admitted?(sql: AdmissionSql, tasks: readonly AdmittedTask[]): Fragment;
  // Inside the transaction that ends one of its tasks, after its status and its credits.
  finished?(tx: Tx, task: EndedTask, endedAt: Date): Promise<void>;
}

// One task-creating endpoint. REST routes, MCP tools, validation, catalog and OpenAPI are derived from these.
// The functions taking the input are methods, so an entry of a particular input is also a Capability of the common
// one (method parameters are compared bivariantly): the table holds every entry without a cast.
export type Capability<I extends CommonCreateInput = CommonCreateInput, Id extends string = string> = CapabilityEndpoint<I, Id> & BillingTerms;

// Everything of an entry but how it is billed.
export interface CapabilityEndpoint<I extends CommonCreateInput, Id extends string> {
  id: Id;
  path: string;
  area: Area;
  summary: string;
  tool: { name: string; title: string; description: string };
  inputSchema: z.ZodType<I>;
  crossFieldRules?(input: I): FieldFailure[];
  // Rules that need the decoded media (a source video's real duration, a sample's length): checked by the
  // worker once the inputs are resolved; a failure ends the task failed with invalid_request at the field.
  checkResolvedMedia?(input: I, media: Readonly<Record<string, MediaFacts>>, model: string): FieldFailure[];
  // The concrete model ids the endpoint accepts besides `auto`, in SPEC.md's order.
  modelIds: readonly string[];
  // True when the endpoint accepts any `model` and ignores it (prompt enhancement).
  ignoresModel?: boolean;
  // A smallest valid body, for documentation, OpenAPI examples and the contract suite.
  example: Record<string, unknown>;
  output: OutputShape;
  deadlineSeconds: number;
  prepare(input: I, ctx: PrepareContext): Promise<Prepared>;
  lifecycle?: CapabilityLifecycle;
}
