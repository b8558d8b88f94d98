import { z } from "zod";
import { CAPABILITIES, creditBalanceView, InsufficientScopeError, quoteTask, scopeFor, ServiceError, type Capability, type Scope } from "../../core/index.js";
import { jsonSchemaOf, parseArguments } from "./json-schema.js";
import { OUTPUT_SCHEMAS } from "./output-schemas.js";
import { READ_ONLY, type ToolDefinition } from "./types.js";

const RECENT_ENTRIES = 10;

const balanceInput = z.object({}).strict();

const capabilityIds = CAPABILITIES.map((c) => c.id) as [string, ...string[]];
const quoteInput = z
  .object({
    capability: z
      .enum(capabilityIds)
      .describe("The capability of the tool you would call, as its tasks name it (svc.speech.synthesize: text_to_speech)."),
    arguments: z
      .record(z.string(), z.unknown())
      .describe("The arguments you would give that tool (client_request_id may be left out): validated and priced exactly as the create would be."),
  })
  .strict();

// Refusals of the priced arguments point into `arguments`, where the caller wrote them.
function underArguments(pointer: unknown): unknown {
  return typeof pointer === "string" ? `/arguments${pointer}` : pointer;
}

function pointingIntoArguments(error: unknown): unknown {
  if (!(error instanceof ServiceError) || error.param === "/capability") return error;
  const details = error.details && {
    ...error.details,
    ...(Array.isArray(error.details.errors)
      ? { errors: error.details.errors.map((e: { param?: string; loc?: unknown[] }) => ({ ...e, param: underArguments(e.param), loc: ["arguments", ...(e.loc ?? [])] })) }
      : {}),
    ...(Array.isArray(error.details.candidate_failures)
      ? { candidate_failures: error.details.candidate_failures.map((f: { param?: string }) => ({ ...f, param: underArguments(f.param) })) }
      : {}),
  };
  return new ServiceError(error.code, error.message, { param: underArguments(error.param) as string | undefined, details, headers: error.headers });
}

function withoutClientRequestId(args: Record<string, unknown>): Record<string, unknown> {
  const { client_request_id: _ignored, ...body } = args;
  return body;
}

// What an agent needs before spending: the balance, and the price of a request before it is made.
export function accountTools(): ToolDefinition[] {
  return [
    {
      name: "svc.credits.get",
      title: "Credit balance",
      description:
        `Your credits: available, held by open tasks, spent and granted, with the ${RECENT_ENTRIES} most recent ledger entries ` +
        "(holds at creation, charges on success, refunds on failure).",
      inputSchema: jsonSchemaOf(balanceInput, "input"),
      outputSchema: OUTPUT_SCHEMAS.balance,
      annotations: READ_ONLY,
      scopes: [scopeFor("credits", "read")],
      async run(args, call) {
        parseArguments(balanceInput, args);
        const view = await creditBalanceView(call.core, call.grant.tenantId);
        return { structured: { ...view, entries: view.entries.slice(0, RECENT_ENTRIES) } };
      },
    },
    {
      name: "svc.tasks.quote",
      title: "Quote a request",
      description:
        "Price a task-creating call without making it: the model it would run on (what auto resolves to), the price, the " +
        "credits it would hold, your available balance, or the exact refusal the create would give (with " +
        "details.candidate_failures when no model fits). Nothing is created, held or charged.",
      inputSchema: jsonSchemaOf(quoteInput, "input"),
      outputSchema: OUTPUT_SCHEMAS.quote,
      annotations: READ_ONLY,
      // Whoever may create the task may price it: any task-creating area's write scope lets the call in, and the
      // priced capability's own scope is checked once it is known.
      scopes: [...new Set(CAPABILITIES.map((c) => scopeFor(c.area, "write")))] as [Scope, ...Scope[]],
      async run(args, call) {
        const input = parseArguments(quoteInput, args);
        const capability = CAPABILITIES.find((c) => c.id === input.capability) as Capability;
        const needed = scopeFor(capability.area, "write");
        if (!call.grant.scopes.includes(needed)) throw new InsufficientScopeError([needed], [needed]);
        const quote = await quoteTask(call.core, call.grant.tenantId, input.capability, withoutClientRequestId(input.arguments)).catch((error: unknown) => {
          throw pointingIntoArguments(error);
        });
        return { structured: quote };
      },
    },
  ];
}
