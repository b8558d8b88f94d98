import { writeFile } from "node:fs/promises";
import { admin, creditBalanceView, setTenantRetention, isArea, listRunningLimits, parseCredits, readTenantRateLimits, type Area, type Core } from "../core/index.js";
import { runLimitsCommand } from "./limits-command.js";
import { runMcpCommand } from "./mcp-command.js";
import { describeStanding, runModelList, runRetireCommand } from "./model-command.js";
import { describeSpendLimit, parseSpendLimit, runSpendLimitCommand } from "./spend-limit-command.js";
import { OAUTH_HANDLERS } from "./oauth-command.js";
import { runTokenCommand } from "./token-command.js";
import { describeRunningLimit, runRunningLimitSet } from "./running-limit-command.js";

// What each command does, once its arguments are parsed and its database is open.
export interface CommandContext {
  core: Core;
  args: Record<string, string | undefined>;
  options: Record<string, string | true>;
  // JSON with --json, else the text.
  print(json: unknown, text: string): void;
}

type Handler = (ctx: CommandContext) => Promise<number>;

function text(ctx: CommandContext, name: string): string | undefined {
  const value = ctx.options[name];
  return typeof value === "string" ? value : undefined;
}

function required(ctx: CommandContext, name: string): string {
  const value = ctx.args[name];
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
}

function credits(value: string, what: string): bigint {
  try {
    return parseCredits(value);
  } catch {
    throw new Error(`${what} must be a positive amount of credits, a decimal with up to 6 places (e.g. 25.5); got "${value}"`);
  }
}

function parseAreas(value: string | undefined): Area[] | null {
  if (value === undefined) return null;
  const areas = value.split(",").map((a) => a.trim());
  const bad = areas.filter((a) => !isArea(a));
  if (bad.length > 0 || areas.length === 0) throw new Error(`unknown area(s): ${bad.join(", ") || "(none given)"}`);
  return areas as Area[];
}

export const HANDLERS: Record<string, Handler> = {
  async "tenant create"(ctx) {
    const name = text(ctx, "name") as string;
    const amount = text(ctx, "credits") ?? "0";
    const tenant = await admin.createTenant(ctx.core.db, ctx.core.ids, name, credits(amount, "--credits"));
    ctx.print({ tenant_id: tenant.id, name: tenant.name, credits: amount }, `created tenant ${tenant.id} (${tenant.name}) with ${amount} credits`);
    return 0;
  },

  async "tenant list"(ctx) {
    const tenants = await admin.listTenants(ctx.core.db);
    ctx.print(
      tenants.map((t) => ({ tenant_id: t.id, name: t.name, status: t.status, active_keys: t.keys, created_at: t.createdAt })),
      tenants.map((t) => `${t.id}  ${t.status.padEnd(8)}  keys:${t.keys}  ${t.name}`).join("\n") || "(no tenants)",
    );
    return 0;
  },

  async "tenant show"(ctx) {
    const id = required(ctx, "TENANT_ID");
    const tenant = await admin.getTenant(ctx.core.db, id);
    const [keys, balance, limits] = await Promise.all([
      admin.listApiKeys(ctx.core.db, id),
      creditBalanceView(ctx.core, id),
      readTenantRateLimits(ctx.core.db, ctx.core.config.rateLimits, id),
    ]);
    const active = keys.filter((k) => k.status === "active").length;
    ctx.print(
      {
        tenant_id: tenant.id,
        name: tenant.name,
        status: tenant.status,
        created_at: tenant.createdAt,
        available_credits: balance.available_credits,
        held_credits: balance.held_credits,
        spent_credits: balance.spent_credits,
        granted_credits: balance.granted_credits,
        active_keys: active,
        revoked_keys: keys.length - active,
        rate_limits: { window_seconds: limits.windowSeconds, per_key: limits.perKey, per_tenant: limits.perTenant },
      },
      [
        `${tenant.id}  ${tenant.name}  (${tenant.status}, created ${tenant.createdAt.toISOString()})`,
        `credits: ${balance.available_credits} available, ${balance.held_credits} held, ${balance.spent_credits} spent, ${balance.granted_credits} granted`,
        `keys: ${active} active, ${keys.length - active} revoked (svc key list ${tenant.id})`,
        `rate limits: ${limits.perKey} per key, ${limits.perTenant} per tenant, every ${limits.windowSeconds} s`,
      ].join("\n"),
    );
    return 0;
  },

  async "tenant disable"(ctx) {
    return setStatus(ctx, "disabled");
  },

  async "tenant enable"(ctx) {
    return setStatus(ctx, "active");
  },

  async "tenant limits"(ctx) {
    const limits = await runLimitsCommand(ctx.core, required(ctx, "TENANT_ID"), {
      "per-key": text(ctx, "per-key"),
      "per-tenant": text(ctx, "per-tenant"),
      "upload-max-bytes": text(ctx, "upload-max-bytes"),
      "upload-max-count": text(ctx, "upload-max-count"),
    });
    ctx.print(
      limits,
      `${limits.tenant_id}: ${limits.per_key} requests per key (${limits.per_key_source}) and ${limits.per_tenant} per tenant ` +
        `(${limits.per_tenant_source}) every ${limits.window_seconds} s; uploads up to ${limits.upload_max_bytes} bytes ` +
        `(${limits.upload_max_bytes_source}) and ${limits.upload_max_count} assets (${limits.upload_max_count_source})`,
    );
    return 0;
  },

  async "tenant retention"(ctx) {
    const id = required(ctx, "TENANT_ID");
    const text = required(ctx, "DAYS");
    const days = text === "default" ? null : Number(text);
    if (days !== null && !(/^\d+$/.test(text) && days >= 1 && days <= 36_500)) throw new Error(`DAYS must be a whole number of days (1 to 36500) or "default"; got "${text}"`);
    await admin.getTenant(ctx.core.db, id);
    await setTenantRetention(ctx.core.db, id, days);
    const kept = days ?? ctx.core.config.artifactRetentionDays;
    ctx.print({ tenant_id: id, artifact_retention_days: kept, source: days === null ? "default" : "tenant" }, `${id}: artifacts kept ${kept} days (${days === null ? "default" : "tenant"})`);
    return 0;
  },

  async "tenant spend-limit"(ctx) {
    const result = await runSpendLimitCommand(ctx.core, "tenant", required(ctx, "TENANT_ID"), required(ctx, "LIMIT"));
    ctx.print(result, describeSpendLimit(result));
    return 0;
  },

  async "key create"(ctx) {
    const save = text(ctx, "save");
    // Parsed before the key exists, so a malformed limit creates nothing.
    const spendLimit = text(ctx, "spend-limit");
    if (spendLimit !== undefined) parseSpendLimit(spendLimit);
    const key = await admin.createApiKey(ctx.core.db, ctx.core.ids, ctx.core.config.region, required(ctx, "TENANT_ID"), {
      name: text(ctx, "name"),
      areas: parseAreas(text(ctx, "areas")),
    });
    // `wx`: never overwrite a key file someone relies on; the key still reaches the screen below.
    if (save) await writeFile(save, `${key.key}\n`, { mode: 0o600, flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
      throw new Error(`key ${key.id} was created but not saved to ${save} (${error.code ?? error.message}); it is: ${key.key}`);
    });
    const limit = spendLimit === undefined ? undefined : await runSpendLimitCommand(ctx.core, "key", key.id, spendLimit);
    ctx.print(
      {
        key_id: key.id,
        tenant_id: key.tenantId,
        api_key: key.key,
        region: key.region,
        areas: key.areas,
        ...(save ? { saved_to: save } : {}),
        ...(limit ? { spend_limit: limit.spend_limit } : {}),
      },
      `API key ${key.id} for ${key.tenantId}, areas: ${key.areas?.join(", ") ?? "all"}${limit ? `; ${describeSpendLimit(limit)}` : ""} ` +
        `(shown once${save ? `; saved to ${save}` : ""}):\n${key.key}`,
    );
    return 0;
  },

  async "key list"(ctx) {
    const keys = await admin.listApiKeys(ctx.core.db, ctx.args.TENANT_ID);
    ctx.print(
      keys.map((k) => ({
        key_id: k.id,
        tenant_id: k.tenantId,
        name: k.name,
        prefix: k.displayPrefix,
        areas: k.areas,
        status: k.status,
        created_at: k.createdAt,
        revoked_at: k.revokedAt,
      })),
      keys.map((k) => `${k.id}  ${k.tenantId}  ${k.displayPrefix}  ${k.status.padEnd(7)}  areas:${k.areas?.join(",") ?? "all"}  ${k.name}`).join("\n") ||
        "(no keys)",
    );
    return 0;
  },

  async "key spend-limit"(ctx) {
    const result = await runSpendLimitCommand(ctx.core, "key", required(ctx, "KEY_ID"), required(ctx, "LIMIT"));
    ctx.print(result, describeSpendLimit(result));
    return 0;
  },

  async "key revoke"(ctx) {
    const id = required(ctx, "KEY_ID");
    if (!(await admin.revokeApiKey(ctx.core.db, id))) throw new Error(`no active key ${id}`);
    ctx.print({ key_id: id, status: "revoked" }, `key ${id} revoked`);
    return 0;
  },

  async "credits grant"(ctx) {
    const tenantId = required(ctx, "TENANT_ID");
    const amount = required(ctx, "AMOUNT");
    const micro = credits(amount, "AMOUNT");
    if (micro === 0n) throw new Error("AMOUNT must be more than 0");
    await admin.grantTenantCredits(ctx.core.db, tenantId, micro, text(ctx, "note") ?? "granted by operator");
    ctx.print({ tenant_id: tenantId, granted_credits: amount }, `granted ${amount} credits to ${tenantId}`);
    return 0;
  },

  async "credits show"(ctx) {
    const id = required(ctx, "TENANT_ID");
    const limitText = text(ctx, "limit") ?? "10";
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > 50) throw new Error(`--limit must be a whole number from 1 to 50; got "${limitText}"`);
    await admin.getTenant(ctx.core.db, id);
    // The command takes no cursor, so its answer says nothing of further pages.
    const { has_more: _more, next_cursor: _cursor, ...view } = await creditBalanceView(ctx.core, id, { limit });
    ctx.print(
      { tenant_id: id, ...view },
      [
        `${id}: ${view.available_credits} available, ${view.held_credits} held, ${view.spent_credits} spent, ${view.granted_credits} granted`,
        ...view.entries.map((e) => `  ${e.created_at}  ${e.kind.padEnd(8)} ${e.amount_credits.padStart(14)}  ${e.task_id ?? ""}${e.note ? `  ${e.note}` : ""}`),
      ].join("\n"),
    );
    return 0;
  },

  async token(ctx) {
    const token = await runTokenCommand(ctx.core, required(ctx, "TENANT_ID"), { scopes: text(ctx, "scopes"), ttl: text(ctx, "ttl") });
    ctx.print(token, `access token for ${token.tenant_id} (${token.scope}), valid ${token.expires_in} s for ${token.audience}:\n${token.access_token}`);
    return 0;
  },

  async "model list"(ctx) {
    const models = await runModelList(ctx.core);
    ctx.print(
      models,
      models.map((m) => `${m.model.padEnd(30)} ${m.lifecycle.padEnd(10)} ${m.live ? "live" : "not live"}${m.retires_at ? `  deprecated ${m.deprecated_at}  retires ${m.retires_at}${m.replacement ? `  → ${m.replacement}` : ""}` : ""}`).join("\n"),
    );
    return 0;
  },

  async "model retire"(ctx) {
    const view = await runRetireCommand(ctx.core, required(ctx, "MODEL"), {
      on: text(ctx, "on"),
      "deprecated-from": text(ctx, "deprecated-from"),
      replacement: text(ctx, "replacement"),
      clear: ctx.options.clear === true,
    });
    ctx.print(view, describeStanding(view));
    return 0;
  },

  async "running-limit show"(ctx) {
    const limits = await listRunningLimits(ctx.core.db);
    ctx.print(limits, limits.length === 0 ? "no running limits or weights set: tenants share the workers evenly" : limits.map(describeRunningLimit).join("\n"));
    return 0;
  },

  async "running-limit set"(ctx) {
    const limit = await runRunningLimitSet(ctx.core, ctx.options);
    ctx.print(limit, describeRunningLimit(limit));
    return 0;
  },

  async mcp(ctx) {
    return runMcpCommand(ctx.core, text(ctx, "tool-names"));
  },

  ...OAUTH_HANDLERS,
};

async function setStatus(ctx: CommandContext, status: "active" | "disabled"): Promise<number> {
  const id = required(ctx, "TENANT_ID");
  await admin.setTenantStatus(ctx.core.db, id, status);
  ctx.print({ tenant_id: id, status }, `tenant ${id} is now ${status}`);
  return 0;
}
