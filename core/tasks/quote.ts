import { checkCallbackSigningKey } from "./callback-fields.js";
import { findCapability } from "../capabilities/table.js";
import { readBalance } from "../db/statements/read-balance.js";
import { formatCredits } from "../credits/money.js";
import { ServiceError } from "../errors/index.js";
import { parseCreateInput, prepareRequest, type PrepareRuntime } from "./create.js";

// What a task-creating request would do, without doing it: the same validation, media checks, model selection
// and price as createTask, so the quote's model and hold are the ones the create would take, and its refusal
// (candidate failures included) is the one the create would give. Nothing is claimed, held or created.
export async function quoteTask(core: PrepareRuntime, tenantId: string, capabilityId: string, raw: unknown) {
  const capability = findCapability(capabilityId);
  if (!capability) throw new ServiceError("unsupported_capability", `Unknown capability ${capabilityId}.`, { param: "/capability" });
  const input = parseCreateInput(capability, raw, core.config.outboundAllowLoopbackHttp);
  await checkCallbackSigningKey(core.db, tenantId, input);
  const [prepared, balance] = await Promise.all([prepareRequest(core, capability, input, tenantId), readBalance(core.db, tenantId)]);
  const total = prepared.quote.totalMicro;
  return {
    object: "quote" as const,
    capability: capability.id,
    model: prepared.requestedModel,
    resolved_model: prepared.resolvedModel,
    model_selection_reason: prepared.selectionReason,
    billing_mode: capability.billingMode,
    price_credits: formatCredits(total),
    // Generation holds its price and captures it on success; understanding and enhancement hold this estimate
    // and capture the measured amount (at most the hold). Either way a failure refunds everything.
    hold_credits: formatCredits(total),
    lines: prepared.quote.lines.map((line) => ({
      meter: line.meter,
      quantity: line.quantity.toString(),
      unit: line.unit,
      amount_credits: formatCredits(line.amountMicro),
    })),
    available_credits: formatCredits(balance.available),
    sufficient_balance: balance.available >= total,
  };
}

export type TaskQuote = Awaited<ReturnType<typeof quoteTask>>;
