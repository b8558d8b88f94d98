import type { CapabilityId } from "../capabilities/table.js";
import type { VendorFamily } from "../vendor-families.js";
import { ProviderFailure, type ProviderAdapter, type ProviderOutcome, type ProviderRequest } from "./types.js";
import type { VendorInputOf } from "./vendor-input.js";

// A task's request to a vendor, of one capability, with that capability's input as the adapter receives it; of
// several, one of theirs (a union narrowed by `capability`).
export type ProviderRequestOf<Id extends CapabilityId> = Id extends CapabilityId
  ? { taskId: string; capability: Id; model: string; input: VendorInputOf<Id> }
  : never;

// How a family runs one capability: submit, and for a job the vendor runs on, following and stopping it. One
// handler may serve several capabilities: declared `{ … } satisfies CapabilityHandler<A | B>`, it keeps its own
// structural type, which is then the handler of A and of B (the compiler cannot see that through the generic
// alone, whose input types make it invariant).
export interface CapabilityHandler<Id extends CapabilityId> {
  submit: (request: ProviderRequestOf<Id>, signal: AbortSignal) => Promise<ProviderOutcome>;
  poll?: (ref: string, request: ProviderRequestOf<Id>, signal: AbortSignal) => Promise<ProviderOutcome>;
  cancel?: (ref: string, request: ProviderRequestOf<Id>, signal: AbortSignal) => Promise<void>;
}

// One handler for each capability a family serves: the compiler checks that none is missing.
export type CapabilityHandlers<Served extends CapabilityId> = { [Id in Served]: CapabilityHandler<Id> };

// The one place an untyped request becomes a typed one. The worker hands an adapter the input that capability's
// schema admitted, with its media resolved (core/tasks/media-inputs.ts), so the capability id decides its shape.
function isServed<Served extends CapabilityId>(
  handlers: CapabilityHandlers<Served>,
  request: ProviderRequest,
): request is ProviderRequest & { capability: Served } & ProviderRequestOf<Served> {
  return Object.hasOwn(handlers, request.capability);
}

// The handler of one capability, typed for its requests (a mapped type indexed by its own key).
function handlerOf<Id extends Served, Served extends CapabilityId>(handlers: CapabilityHandlers<Served>, id: Id): CapabilityHandler<Id> {
  return handlers[id];
}

function anyHas<Served extends CapabilityId>(handlers: CapabilityHandlers<Served>, operation: "poll" | "cancel"): boolean {
  return (Object.keys(handlers) as Served[]).some((id) => handlerOf(handlers, id)[operation] !== undefined);
}

// The ProviderAdapter the worker calls, dispatching each request to its capability's handler. A capability the
// family does not serve fails as model_unavailable; a poll where the handler has no job to follow fails as a
// request error; a cancel where the handler has none does nothing (the vendor's job cannot be stopped).
export function servingAdapter<Served extends CapabilityId>(
  family: VendorFamily,
  options: { supportsCancel: boolean },
  handlers: CapabilityHandlers<Served>,
): ProviderAdapter {
  const adapter: ProviderAdapter = {
    family,
    supportsCancel: options.supportsCancel,
    async submit(request, signal) {
      if (!isServed(handlers, request)) {
        throw new ProviderFailure("model_unavailable", `${request.model} cannot run ${request.capability}: ${family} does not serve it`, false);
      }
      return handlerOf(handlers, request.capability).submit(request, signal);
    },
  };
  if (anyHas(handlers, "poll")) {
    adapter.poll = async (ref, request, signal) => {
      const outcome = isServed(handlers, request) ? await handlerOf(handlers, request.capability).poll?.(ref, request, signal) : undefined;
      if (!outcome) throw new ProviderFailure("model_request_failed", `${family} has no ${request.capability} jobs to follow`, false);
      return outcome;
    };
  }
  if (anyHas(handlers, "cancel")) {
    adapter.cancel = async (ref, request, signal) => {
      if (isServed(handlers, request)) await handlerOf(handlers, request.capability).cancel?.(ref, request, signal);
    };
  }
  return adapter;
}
