import { z } from "zod";
import { CAPABILITIES, creditBalanceView, InsufficientScopeError, MIRRORED_OPERATIONS, quoteTask, scopeFor, ServiceError, type Scope } from "../../core/index.js";
import { jsonSchemaOf, parseArguments } from "./json-schema.js";
import { capabilityNamed } from "./task-creation-tools.js";
import { READ_ONLY, type ToolDefinition } from "./types.js";

const RECENT_ENTRIES = 10;

// Both tools take arguments of their own, so they are written here rather than generated from their rows:
// svc.credits.get none (the latest ledger entries, without GET /v1/credits' pages), and svc.tasks.quote the tool
// to price and that tool's arguments, where POST /v1/quotes takes a capability beside a create's body fields.
const balanceInput = z.object({}).strict();

const quoteInput = z
  .object({
    capability: z
      .string()
      .min(1)
      .max(64)
      .describe("The tool you would call, by name or capability (text_to_speech)."),
    arguments: z
      .record(z.string(), z.unknown())
      .describe("That tool's arguments (client_request_id not needed), checked and priced as the create would."),
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
      name: MIRRORED_OPERATIONS.getCredits.tool.name,
      title: "Credit balance",
      description: `Your credits (available, held by open tasks, spent, granted) and the ${RECENT_ENTRIES} latest ledger entries.`,
      inputSchema: jsonSchemaOf(balanceInput, "input"),
      annotations: READ_ONLY,
      scopes: [scopeFor("credits", "read")],
      async run(args, call) {
        parseArguments(balanceInput, args);
        // The tool takes no cursor, so its answer says nothing of further pages.
        const { has_more: _more, next_cursor: _cursor, ...view } = await creditBalanceView(call.core, call.grant.tenantId, { limit: RECENT_ENTRIES });
        return { structured: view };
      },
    },
    {
      name: MIRRORED_OPERATIONS.createQuote.tool.name,
      title: "Quote a request",
      description:
        "Price a create call without making it: the model auto would pick, the price, the hold and your balance, or " +
        "the exact refusal the create would give. Nothing is created, held or charged.",
      inputSchema: jsonSchemaOf(quoteInput, "input"),
      annotations: READ_ONLY,
      // Whoever may create the task may price it: any task-creating area's write scope lets the call in, and the
      // priced capability's own scope is checked once it is known.
      scopes: [...new Set(CAPABILITIES.map((c) => scopeFor(c.area, "write")))] as [Scope, ...Scope[]],
      async run(args, call) {
        const input = parseArguments(quoteInput, args);
        const capability = capabilityNamed(input.capability, "/capability");
        const needed = scopeFor(capability.area, "write");
        if (!call.grant.scopes.includes(needed)) throw new InsufficientScopeError([needed], [needed]);
        const quote = await quoteTask(call.core, call.grant.tenantId, capability.id, withoutClientRequestId(input.arguments)).catch((error: unknown) => {
          throw pointingIntoArguments(error);
        });
        return { structured: quote };
      },
    },
  ];
}
