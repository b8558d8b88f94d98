import { z } from "zod";

// Every setting the processes read, validated once at start. An invalid value stops the process with a message
// naming the variable, rather than failing later in a request.
const vendorFamilies = ["vendorA", "vendorB", "vendorC", "vendorD", "vendorE", "vendorF", "vendorG"] as const;
export type VendorFamily = (typeof vendorFamilies)[number];
export const VENDOR_FAMILIES: readonly VendorFamily[] = vendorFamilies;

const port = z.coerce.number().int().min(0).max(65535);
const optionalUrl = z.url().optional();

const envSchema = z.object({
  DATABASE_URL: z.string().min(1),
  SVC_REGION: z
    .string()
    .regex(/^[a-z]{2,8}$/, "must be 2-8 lowercase letters")
    .default("us"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: port.default(8080),
  PUBLIC_BASE_URL: optionalUrl,
  ARTIFACT_DIR: z.string().min(1).default(".data/artifacts"),
  ARTIFACT_URL_SECRET: z.string().min(32, "must be at least 32 characters"),
  ARTIFACT_URL_TTL_SECONDS: z.coerce.number().int().positive().default(86_400),
  WORKER_CONCURRENCY: z.coerce.number().int().positive().default(16),
  PROVIDER_RETRY_BASE_MS: z.coerce.number().int().positive().default(1000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

const providerSchema = z.object({ baseUrl: optionalUrl, apiKey: z.string().min(1).optional() });

// VENDOR_A_BASE_URL / VENDOR_A_API_KEY ... VENDOR_G_*: a family is configured when both are set.
export function providerEnvNames(family: VendorFamily): { baseUrl: string; apiKey: string } {
  const prefix = family.replace("vendor", "VENDOR_").toUpperCase();
  return { baseUrl: `${prefix}_BASE_URL`, apiKey: `${prefix}_API_KEY` };
}

export interface ProviderEndpoint {
  baseUrl: string;
  apiKey: string;
}

export interface Config {
  databaseUrl: string;
  region: string;
  host: string;
  port: number;
  publicBaseUrl: string;
  artifactDir: string;
  artifactUrlSecret: string;
  artifactUrlTtlSeconds: number;
  workerConcurrency: number;
  providerRetryBaseMs: number;
  logLevel: string;
  providers: Partial<Record<VendorFamily, ProviderEndpoint>>;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) problems.push(...parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`));
  const providers: Config["providers"] = {};
  for (const family of vendorFamilies) {
    const names = providerEnvNames(family);
    const provider = providerSchema.safeParse({ baseUrl: env[names.baseUrl], apiKey: env[names.apiKey] });
    if (!provider.success) {
      problems.push(...provider.error.issues.map((issue) => `  ${issue.path[0] === "baseUrl" ? names.baseUrl : names.apiKey}: ${issue.message}`));
    } else if (provider.data.baseUrl && provider.data.apiKey) {
      providers[family] = { baseUrl: provider.data.baseUrl.replace(/\/+$/, ""), apiKey: provider.data.apiKey };
    }
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(`invalid configuration:\n${problems.join("\n")}`);
  const values = parsed.data;
  return {
    databaseUrl: values.DATABASE_URL,
    region: values.SVC_REGION,
    host: values.HOST,
    port: values.PORT,
    publicBaseUrl: (values.PUBLIC_BASE_URL ?? `http://${values.HOST}:${values.PORT}`).replace(/\/+$/, ""),
    artifactDir: values.ARTIFACT_DIR,
    artifactUrlSecret: values.ARTIFACT_URL_SECRET,
    artifactUrlTtlSeconds: values.ARTIFACT_URL_TTL_SECONDS,
    workerConcurrency: values.WORKER_CONCURRENCY,
    providerRetryBaseMs: values.PROVIDER_RETRY_BASE_MS,
    logLevel: values.LOG_LEVEL,
    providers,
  };
}
