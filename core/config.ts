import { isIP } from "node:net";
import { z } from "zod";
import { mergeVendorIds, vendorIdProblems, type VendorIds } from "./catalog/vendor-ids.js";
import { configuredRetirements, modelRetirementsJson } from "./retirements/configured.js";
import type { Retirement } from "./retirements/retirement.js";
import { VENDOR_FAMILIES, type VendorFamily } from "./vendor-families.js";

export { VENDOR_FAMILIES, type VendorFamily } from "./vendor-families.js";

// Every setting the processes read, validated once at start. An invalid value stops the process with a message
// naming the variable, rather than failing later in a request.

// The service's own issuer (its identifier is the MCP public URL) signs with one ES256 key kept as a private JWK
// (OAUTH_SIGNING_KEY): `svc token`'s development access tokens, and whatever the built-in authorization server
// signs. The MCP server publishes its public half. ES256 because every JOSE library and WebCrypto runtime verifies it.
export const signingKeySchema = z
  .object({
    kty: z.literal("EC"),
    crv: z.literal("P-256"),
    x: z.string().min(1),
    y: z.string().min(1),
    d: z.string().min(1),
    kid: z.string().min(1),
    alg: z.literal("ES256"),
  })
  .loose();

export type SigningKey = z.infer<typeof signingKeySchema>;

// A rate-limit budget is a number of requests per window; it is stored as a Postgres integer.
export const MAX_REQUESTS_PER_WINDOW = 2_147_483_647;

export interface S3Settings {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const port = z.coerce.number().int().min(0).max(65535);
const optionalUrl = z.url().optional();
const signingKeyJson = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "must be an ES256 private JWK as JSON (npm start keeps one in .data/)" });
      return z.NEVER;
    }
  })
  .pipe(signingKeySchema);
const flag = z.enum(["true", "false", "1", "0"]).default("false").transform((v) => v === "true" || v === "1");
const flagOn = z.enum(["true", "false", "1", "0"]).default("true").transform((v) => v === "true" || v === "1");
// The AES-256-GCM key that keeps callback signing secrets encrypted at rest: 32 bytes, base64 or base64url.
const aes256Key = z.string().transform((text, ctx) => {
  const key = Buffer.from(text, "base64");
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text) || key.length !== 32) {
    ctx.addIssue({ code: "custom", message: "must be 32 random bytes, base64-encoded (openssl rand -base64 32)" });
    return z.NEVER;
  }
  return key;
});

// MCP_TRUSTED_PROXIES: the proxies in front of the MCP replicas, comma-separated addresses or CIDR ranges; a request
// from one of them is taken to come from the address its X-Forwarded-For names (Fastify's trustProxy).
const trustedProxies = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const entries = (text ?? "").split(",").map((entry) => entry.trim()).filter((entry) => entry.length > 0);
    for (const entry of entries) {
      const [address = "", bits, ...rest] = entry.split("/");
      const family = isIP(address);
      const width = family === 4 ? 32 : 128;
      if (family === 0 || rest.length > 0 || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= width))) {
        ctx.addIssue({ code: "custom", message: `${entry} is not an IP address or CIDR range (10.0.0.0/8, 2001:db8::/32)` });
        return z.NEVER;
      }
    }
    return entries;
  });

// VENDOR_ID_MAP: {"vendorA": {"models": {"vendorA-speech-2.8-hd": "…"}, "voices": {"en_female_aria": "…"}}}, entries
// replacing those of core/catalog/vendor-ids.ts.
const vendorIdEntries = z.record(z.string().min(1), z.string().min(1)).default({});
const vendorIdMapJson = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: 'must be JSON such as {"vendorA": {"models": {…}, "voices": {…}}}' });
      return z.NEVER;
    }
  })
  .pipe(z.partialRecord(z.enum(VENDOR_FAMILIES), z.object({ models: vendorIdEntries, voices: vendorIdEntries }).strict()));

// CORS_ALLOWED_ORIGINS: browser origins allowed to call the REST API, comma-separated, each exactly as a browser
// sends it in Origin (scheme://host[:port], no path); no wildcard, so nothing is opened by accident.
const corsOrigins = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const origins = (text ?? "").split(",").map((origin) => origin.trim()).filter((origin) => origin.length > 0);
    for (const origin of origins) {
      if (!/^https?:\/\/[^/\s*]+$/.test(origin)) {
        ctx.addIssue({ code: "custom", message: `${origin} is not an origin: write scheme://host[:port] (no path, no *)` });
        return z.NEVER;
      }
    }
    return origins;
  });

const envSchema = z.object({
  DATABASE_URL: z.string().min(1),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).default(10),
  DATABASE_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  SVC_REGION: z
    .string()
    .regex(/^[a-z]{2,8}$/, "must be 2-8 lowercase letters")
    .default("us"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: port.default(8080),
  PUBLIC_BASE_URL: optionalUrl,
  ARTIFACT_STORE: z.enum(["filesystem", "s3"]).default("filesystem"),
  ARTIFACT_DIR: z.string().min(1).default(".data/artifacts"),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_BUCKET: z.string().min(3).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  ARTIFACT_URL_SECRET: z.string().min(32, "must be at least 32 characters"),
  ARTIFACT_URL_TTL_SECONDS: z.coerce.number().int().positive().default(86_400),
  ARTIFACT_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
  ARTIFACT_SWEEP_BATCH_SIZE: z.coerce.number().int().positive().max(10_000).default(500),
  WORKER_CONCURRENCY: z.coerce.number().int().positive().default(16),
  // Gone with the fair share of the workers (core/tasks/tenant-slots.ts): refused, so a deployment that set it
  // learns what replaced it instead of silently losing its cap.
  TENANT_WORKER_SLOTS: z.never({
    error: "is no longer read: a tenant alone now uses every worker and tenants share them evenly; cap a tenant's running tasks with `svc running-limit set --tenant ID N`",
  }).optional(),
  TENANT_DELIVERY_SLOTS: z.coerce.number().int().positive().optional(),
  PROVIDER_RETRY_BASE_MS: z.coerce.number().int().positive().default(1000),
  WORKER_POLL_INTERVAL_MS: z.coerce.number().int().positive().default(1000),
  CALLBACK_SECRET_ENCRYPTION_KEY: aes256Key,
  CALLBACK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  CALLBACK_RETRY_MINUTE_MS: z.coerce.number().int().positive().default(60_000),
  OUTBOUND_ALLOW_LOOPBACK_HTTP: flag,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_PROMPTS: flag,
  WORKER_HOST: z.string().min(1).default("127.0.0.1"),
  WORKER_PORT: port.default(8082),
  WORKER_HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  MCP_HOST: z.string().min(1).default("127.0.0.1"),
  MCP_PORT: port.default(8081),
  MCP_PUBLIC_URL: optionalUrl,
  MCP_TRUSTED_PROXIES: trustedProxies,
  MCP_TOOL_NAMES: z.enum(["dotted", "underscore", "both"]).default("dotted"),
  OAUTH_ISSUER: optionalUrl,
  OAUTH_JWKS_URL: optionalUrl,
  OAUTH_SIGNING_KEY: signingKeyJson.optional(),
  OAUTH_SERVER: flag,
  OAUTH_CLIENT_METADATA_DOCUMENTS: flagOn,
  OAUTH_REGISTRATIONS_PER_HOUR: z.coerce.number().int().positive().default(20),
  OAUTH_UNGRANTED_CLIENTS_MAX: z.coerce.number().int().positive().max(100_000).default(10_000),
  OAUTH_UNGRANTED_CLIENT_TTL_HOURS: z.coerce.number().positive().default(24),
  MCP_SCOPE_CHALLENGE: flag,
  MCP_TASKS: flagOn,
  MEDIA_INPUT_MAX_BYTES: z.coerce.number().int().positive().default(100 * 1024 * 1024),
  MEDIA_FETCH_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  MEDIA_FETCH_FIRST_BYTE_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  MEDIA_FETCH_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(0).default(8192),
  MEDIA_FETCH_RATE_WINDOW_MS: z.coerce.number().int().min(100).default(10_000),
  ASSET_UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(16 * 1024 * 1024),
  RATE_LIMIT_STORE: z.enum(["postgres", "redis"]).default("postgres"),
  REDIS_URL: z.url({ protocol: /^redis$/ }).optional(),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().max(86_400).default(60),
  RATE_LIMIT_PER_KEY: z.coerce.number().int().positive().max(MAX_REQUESTS_PER_WINDOW).default(60_000),
  RATE_LIMIT_PER_TENANT: z.coerce.number().int().positive().max(MAX_REQUESTS_PER_WINDOW).default(120_000),
  RATE_LIMIT_SYNC_MS: z.coerce.number().int().min(0).max(10_000).default(100),
  WORKER_LOST_AFTER_MS: z.coerce.number().int().min(100).default(30_000),
  CORS_ALLOWED_ORIGINS: corsOrigins,
  VENDOR_ID_MAP: vendorIdMapJson.optional(),
  MODEL_RETIREMENTS: modelRetirementsJson.optional(),
});

const providerSchema = z.object({ baseUrl: optionalUrl, apiKey: z.string().min(1).optional() });

// VENDOR_A_BASE_URL / VENDOR_A_API_KEY ... VENDOR_G_*: a family is configured when both are set.
export function providerEnvNames(family: VendorFamily): { baseUrl: string; apiKey: string } {
  const prefix = family.replace("vendor", "VENDOR_").toUpperCase();
  return { baseUrl: `${prefix}_BASE_URL`, apiKey: `${prefix}_API_KEY` };
}

// Every vendor family pointed at the bundled emulator (its routes are /<family>/…): development and tests.
export function emulatorProviderEnv(emulatorUrl: string): Record<string, string> {
  return Object.fromEntries(
    VENDOR_FAMILIES.flatMap((family) => {
      const names = providerEnvNames(family);
      return [
        [names.baseUrl, `${emulatorUrl}/${family}`],
        [names.apiKey, "emulator"],
      ];
    }),
  );
}

export interface ProviderEndpoint {
  baseUrl: string;
  apiKey: string;
  // The family's vendor model and voice ids (core/catalog/vendor-ids.ts with VENDOR_ID_MAP applied).
  ids?: VendorIds;
}

export interface Config {
  databaseUrl: string;
  // Connections a process keeps for its own queries (a worker's job runner has its own pool besides).
  databasePoolSize: number;
  // A query waiting this long for any answer from Postgres ends its connection (core/db/client.ts).
  databaseQueryTimeoutMs: number;
  region: string;
  host: string;
  port: number;
  publicBaseUrl: string;
  artifactDir: string;
  // Present when ARTIFACT_STORE=s3: artifacts then live in that bucket instead of ARTIFACT_DIR.
  s3: S3Settings | null;
  artifactUrlSecret: string;
  artifactUrlTtlSeconds: number;
  // Days an artifact's bytes are kept (a tenant may have its own), and how many one sweep batch deletes.
  artifactRetentionDays: number;
  artifactSweepBatchSize: number;
  workerConcurrency: number;
  // How many callback deliveries of one tenant run at once, across every worker process (core/tasks/tenant-slots.ts).
  tenantDeliverySlots: number;
  providerRetryBaseMs: number;
  // How often the worker looks for jobs scheduled in the future (callback retries, polls); new jobs wake it at once.
  workerPollIntervalMs: number;
  callbackSecretKey: Buffer;
  // A delivery counts only when a 2xx arrives within this time (SPEC.md: 10 seconds).
  callbackTimeoutMs: number;
  // The length of one minute of the retry schedule (1, 5, 30, 120, 720 minutes); shorter only in tests.
  callbackRetryMinuteMs: number;
  // Development and tests: outbound requests may use plain http:// and reach loopback addresses.
  outboundAllowLoopbackHttp: boolean;
  logLevel: string;
  // Prompt text (input, prompt, instruction, lyrics) appears in logs only when this is on.
  logPrompts: boolean;
  // The worker's own small HTTP server: /healthz, /readyz and /metrics.
  workerHost: string;
  workerPort: number;
  // How often a worker taking jobs says so in Postgres; REST and MCP readiness count a worker alive for three of these.
  workerHeartbeatIntervalMs: number;
  // On SIGTERM a process finishes in-flight requests (servers) or jobs (worker) for at most this long.
  shutdownTimeoutMs: number;
  providers: Partial<Record<VendorFamily, ProviderEndpoint>>;
  // The MCP server's address and public URL; its OAuth resource (the audience of access tokens) is `${publicUrl}/mcp`.
  // `toolNames` lists tools as svc.<area>.<verb>, as svc_<area>_<verb> for hosts that refuse dots, or both.
  // `scopeChallenge`: a tools/call lacking its scope is answered HTTP 403 with a step-up challenge instead of the
  // insufficient_scope tool result. `tasks`: the MCP Tasks extension is declared, and a create tool called with it
  // declared answers a task handle (mcp-server/tasks-extension/).
  // `trustedProxies`: addresses whose X-Forwarded-For names the client (the per-source bounds of the authorization
  // server count that client); none by default.
  mcp: {
    host: string;
    port: number;
    publicUrl: string;
    trustedProxies: string[];
    toolNames: "dotted" | "underscore" | "both";
    scopeChallenge: boolean;
    tasks: boolean;
  };
  // Access tokens accepted besides API keys: an external issuer with its JWKS, the service's own issuer at the MCP
  // public URL (its key signs `svc token`'s tokens), and `server`: the built-in authorization server there.
  // `clientMetadataDocuments`: that server accepts clients named by the URL of their metadata document, which it
  // fetches; off, hosts register (RFC 7591) instead. `registration`: that server's bounds on dynamic registration
  // (core/oauth/server/registration-bounds.ts): registrations per source address an hour, clients registered and
  // never granted at most, and how long such a client is kept.
  oauth: {
    issuer: string | null;
    jwksUrl: string | null;
    signingKey: SigningKey | null;
    server: boolean;
    clientMetadataDocuments: boolean;
    registration: { perSourcePerHour: number; ungrantedMax: number; ungrantedTtlSeconds: number };
  };
  // Largest asset accepted by POST /v1/assets and svc.assets.upload, decoded.
  assetUploadMaxBytes: number;
  mediaInputMaxBytes: number;
  // The whole time one media input's download may take, and the pace it must keep meanwhile: its answer within
  // `firstByteMs`, then at least `minBytesPerSecond` over every window of `windowMs` (core/net/transfer-pace.ts).
  mediaFetchTimeoutMs: number;
  mediaFetchPace: { firstByteMs: number; minBytesPerSecond: number; windowMs: number };
  // Requests per fixed window for each credential and each tenant (defaults; a tenant may have its own), counted
  // in Postgres or, when configured, in Redis.
  rateLimits: {
    store: "postgres" | "redis";
    redisUrl: string | null;
    windowSeconds: number;
    perKey: number;
    perTenant: number;
    // How long a process counts on its own before its counts meet the store's (core/rate-limits/synced-counts.ts).
    syncMs: number;
  };
  // A worker process whose liveness session has been gone this long is dead: its locked jobs go to other workers.
  workerLostAfterMs: number;
  // Browser origins allowed to call the REST API (CORS); none unless configured.
  corsAllowedOrigins: string[];
  // The retirements MODEL_RETIREMENTS sets; `svc model retire` overrides them per model at run time.
  modelRetirements: Retirement[];
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) problems.push(...parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`));
  const providers: Config["providers"] = {};
  for (const family of VENDOR_FAMILIES) {
    const names = providerEnvNames(family);
    const provider = providerSchema.safeParse({ baseUrl: env[names.baseUrl], apiKey: env[names.apiKey] });
    if (!provider.success) {
      problems.push(...provider.error.issues.map((issue) => `  ${issue.path[0] === "baseUrl" ? names.baseUrl : names.apiKey}: ${issue.message}`));
    } else if (provider.data.baseUrl && provider.data.apiKey) {
      providers[family] = { baseUrl: provider.data.baseUrl.replace(/\/+$/, ""), apiKey: provider.data.apiKey };
    }
  }
  if (env.ARTIFACT_STORE === "s3") {
    for (const name of ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"]) {
      if (!env[name]) problems.push(`  ${name}: required when ARTIFACT_STORE=s3`);
    }
  }
  if (Boolean(env.OAUTH_ISSUER) !== Boolean(env.OAUTH_JWKS_URL)) problems.push("  OAUTH_ISSUER, OAUTH_JWKS_URL: set both or neither");
  if (parsed.success && parsed.data.OAUTH_SERVER && !parsed.data.OAUTH_SIGNING_KEY) problems.push("  OAUTH_SIGNING_KEY: required when OAUTH_SERVER is on");
  if (env.RATE_LIMIT_STORE === "redis" && !env.REDIS_URL) problems.push("  REDIS_URL: required when RATE_LIMIT_STORE=redis");
  if (parsed.success) {
    const ids = mergeVendorIds(parsed.data.VENDOR_ID_MAP ?? {});
    const live = Object.keys(providers) as VendorFamily[];
    problems.push(...vendorIdProblems(ids, live).map((problem) => `  VENDOR_ID_MAP: ${problem}`));
    for (const family of live) {
      const endpoint = providers[family];
      const familyIds = ids[family];
      if (endpoint && familyIds) endpoint.ids = familyIds;
    }
  }
  const retirements = configuredRetirements(parsed.success ? (parsed.data.MODEL_RETIREMENTS ?? {}) : {}, new Date());
  problems.push(...retirements.problems.map((problem) => `  MODEL_RETIREMENTS: ${problem}`));
  if (!parsed.success || problems.length > 0) throw new ConfigError(`invalid configuration:\n${problems.join("\n")}`);
  const values = parsed.data;
  return {
    databaseUrl: values.DATABASE_URL,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    databaseQueryTimeoutMs: values.DATABASE_QUERY_TIMEOUT_MS,
    region: values.SVC_REGION,
    host: values.HOST,
    port: values.PORT,
    publicBaseUrl: (values.PUBLIC_BASE_URL ?? `http://${values.HOST}:${values.PORT}`).replace(/\/+$/, ""),
    artifactDir: values.ARTIFACT_DIR,
    s3:
      values.ARTIFACT_STORE === "s3"
        ? {
            endpoint: values.S3_ENDPOINT as string,
            region: values.S3_REGION,
            bucket: values.S3_BUCKET as string,
            accessKeyId: values.S3_ACCESS_KEY_ID as string,
            secretAccessKey: values.S3_SECRET_ACCESS_KEY as string,
          }
        : null,
    artifactUrlSecret: values.ARTIFACT_URL_SECRET,
    artifactUrlTtlSeconds: values.ARTIFACT_URL_TTL_SECONDS,
    artifactRetentionDays: values.ARTIFACT_RETENTION_DAYS,
    artifactSweepBatchSize: values.ARTIFACT_SWEEP_BATCH_SIZE,
    workerConcurrency: values.WORKER_CONCURRENCY,
    // A quarter of one worker unless configured: a tenant's slow receiver holds no more of the workers than that.
    tenantDeliverySlots: values.TENANT_DELIVERY_SLOTS ?? Math.ceil(values.WORKER_CONCURRENCY / 4),
    providerRetryBaseMs: values.PROVIDER_RETRY_BASE_MS,
    workerPollIntervalMs: values.WORKER_POLL_INTERVAL_MS,
    callbackSecretKey: values.CALLBACK_SECRET_ENCRYPTION_KEY,
    callbackTimeoutMs: values.CALLBACK_TIMEOUT_MS,
    callbackRetryMinuteMs: values.CALLBACK_RETRY_MINUTE_MS,
    outboundAllowLoopbackHttp: values.OUTBOUND_ALLOW_LOOPBACK_HTTP,
    logLevel: values.LOG_LEVEL,
    logPrompts: values.LOG_PROMPTS,
    workerHost: values.WORKER_HOST,
    workerPort: values.WORKER_PORT,
    workerHeartbeatIntervalMs: values.WORKER_HEARTBEAT_INTERVAL_MS,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    providers,
    mcp: {
      host: values.MCP_HOST,
      port: values.MCP_PORT,
      publicUrl: (values.MCP_PUBLIC_URL ?? `http://${values.MCP_HOST}:${values.MCP_PORT}`).replace(/\/+$/, ""),
      trustedProxies: values.MCP_TRUSTED_PROXIES,
      toolNames: values.MCP_TOOL_NAMES,
      scopeChallenge: values.MCP_SCOPE_CHALLENGE,
      tasks: values.MCP_TASKS,
    },
    oauth: {
      issuer: values.OAUTH_ISSUER ?? null,
      jwksUrl: values.OAUTH_JWKS_URL ?? null,
      signingKey: values.OAUTH_SIGNING_KEY ?? null,
      server: values.OAUTH_SERVER,
      clientMetadataDocuments: values.OAUTH_CLIENT_METADATA_DOCUMENTS,
      registration: {
        perSourcePerHour: values.OAUTH_REGISTRATIONS_PER_HOUR,
        ungrantedMax: values.OAUTH_UNGRANTED_CLIENTS_MAX,
        ungrantedTtlSeconds: Math.round(values.OAUTH_UNGRANTED_CLIENT_TTL_HOURS * 3600),
      },
    },
    assetUploadMaxBytes: values.ASSET_UPLOAD_MAX_BYTES,
    mediaInputMaxBytes: values.MEDIA_INPUT_MAX_BYTES,
    mediaFetchTimeoutMs: values.MEDIA_FETCH_TIMEOUT_MS,
    mediaFetchPace: {
      firstByteMs: values.MEDIA_FETCH_FIRST_BYTE_TIMEOUT_MS,
      minBytesPerSecond: values.MEDIA_FETCH_MIN_BYTES_PER_SECOND,
      windowMs: values.MEDIA_FETCH_RATE_WINDOW_MS,
    },
    rateLimits: {
      store: values.RATE_LIMIT_STORE,
      redisUrl: values.REDIS_URL ?? null,
      windowSeconds: values.RATE_LIMIT_WINDOW_SECONDS,
      perKey: values.RATE_LIMIT_PER_KEY,
      perTenant: values.RATE_LIMIT_PER_TENANT,
      syncMs: values.RATE_LIMIT_SYNC_MS,
    },
    workerLostAfterMs: values.WORKER_LOST_AFTER_MS,
    corsAllowedOrigins: values.CORS_ALLOWED_ORIGINS,
    modelRetirements: retirements.retirements,
  };
}

// Every environment setting with its default, read from the schema itself (docs/configuration.md is checked
// against this list by a test).
export function configurationSettings(): { name: string; default: string | null; required: boolean }[] {
  const settings = Object.entries(envSchema.shape).map(([name, schema]) => {
    let node = schema as z.ZodType;
    while (node instanceof z.ZodPipe) node = node.in as z.ZodType;
    if (node instanceof z.ZodDefault) return { name, default: String(node.def.defaultValue), required: false };
    return { name, default: null, required: !(node instanceof z.ZodOptional) };
  });
  const vendors = VENDOR_FAMILIES.flatMap((family) => {
    const names = providerEnvNames(family);
    return [
      { name: names.baseUrl, default: null, required: false },
      { name: names.apiKey, default: null, required: false },
    ];
  });
  return [...settings, ...vendors];
}
