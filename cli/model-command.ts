import { catalog, retirementDate, RETIREMENT_DATE_HELP, setModelRetirement, type Core } from "../core/index.js";

export interface RetireOptions {
  on?: string;
  "deprecated-from"?: string;
  replacement?: string;
  clear?: boolean;
}

function date(flag: string, text: string): Date {
  const parsed = retirementDate.safeParse(text);
  if (!parsed.success) throw new Error(`--${flag} must be ${RETIREMENT_DATE_HELP}; got "${text}"`);
  return parsed.data;
}

// `svc model retire MODEL --on DATE [--deprecated-from DATE] [--replacement MODEL]` and `svc model retire MODEL
// --clear`: sets or clears a model's retirement for every process, from their next request, without a restart.
export async function runRetireCommand(core: Core, model: string, options: RetireOptions) {
  if (options.clear === true) {
    if (options.on !== undefined || options["deprecated-from"] !== undefined || options.replacement !== undefined) {
      throw new Error("--clear takes no other option");
    }
    return standingView(await setModelRetirement(core, { model, clear: true }));
  }
  if (options.on === undefined) throw new Error("give --on DATE (the retirement) or --clear");
  return standingView(
    await setModelRetirement(core, {
      model,
      retiresAt: date("on", options.on),
      ...(options["deprecated-from"] !== undefined ? { deprecatedAt: date("deprecated-from", options["deprecated-from"]) } : {}),
      ...(options.replacement !== undefined ? { replacement: options.replacement } : {}),
    }),
  );
}

function standingView(standing: Awaited<ReturnType<typeof setModelRetirement>>) {
  const r = standing.retirement;
  return {
    model: standing.model,
    lifecycle: standing.lifecycle,
    deprecated_at: r ? r.deprecatedAt.toISOString() : null,
    retires_at: r ? r.retiresAt.toISOString() : null,
    replacement: r?.replacement ?? null,
    source: r?.source ?? null,
  };
}

export function describeStanding(view: ReturnType<typeof standingView>): string {
  if (view.retires_at === null) return `${view.model}: ${view.lifecycle}, no retirement set`;
  const instead = view.replacement ? `; replacement ${view.replacement}` : "";
  return `${view.model}: ${view.lifecycle}; deprecated from ${view.deprecated_at}, retires at ${view.retires_at}${instead} (${view.source})`;
}

// `svc model list`: every model of the catalog with its lifecycle and retirement dates, as the catalog shows them.
export async function runModelList(core: Core) {
  const state = await catalog.catalogState(core);
  return catalog.ALL_MODEL_IDS.map((id) => {
    const card = catalog.modelDetail(id, state);
    return { model: id, live: card.live, lifecycle: card.lifecycle, deprecated_at: card.deprecated_at, retires_at: card.retires_at, replacement: card.replacement };
  });
}
