import { checkVendor, describeCheck, loadConfig, providerEnvNames, VENDOR_FAMILIES, type VendorFamily } from "../core/index.js";

// `svc vendors check [FAMILY]`: one cheap real call to each configured vendor family (or the one named), saying
// whether its base URL is reachable, its key accepted and, where the vendor lists its models, whether our model ids
// are among them (core/providers/vendor-checks.ts). Exit 0 when every family checked passes, 1 otherwise.
// It needs no database: the vendor settings are read from this process's environment, validated as the
// service validates them at start (VENDOR_ID_MAP included).

// The service's own required settings play no part in a vendor check; where they are absent, these stand in so
// that the vendor settings can be validated by the same code as at start.
const UNUSED_REQUIRED_SETTINGS = {
  DATABASE_URL: "postgres://unused.invalid/unused",
  ARTIFACT_URL_SECRET: "unused-by-the-vendor-check-".padEnd(32, "0"),
  CALLBACK_SECRET_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"),
};

export class VendorsUsageError extends Error {}

export async function runVendorsCheck(familyArg: string | undefined, print: (json: unknown, text: string) => void): Promise<number> {
  if (familyArg !== undefined && !(VENDOR_FAMILIES as readonly string[]).includes(familyArg)) {
    throw new VendorsUsageError(`unknown family "${familyArg}"; the families are ${VENDOR_FAMILIES.join(", ")}`);
  }
  const config = loadConfig({ ...UNUSED_REQUIRED_SETTINGS, ...process.env });
  const wanted: readonly VendorFamily[] = familyArg === undefined ? VENDOR_FAMILIES : [familyArg as VendorFamily];
  const configured = wanted.filter((family) => config.providers[family] !== undefined);
  const notConfigured = wanted.filter((family) => config.providers[family] === undefined);
  const reports = await Promise.all(configured.map((family) => checkVendor(family, config.providers[family]!)));
  const ok = configured.length > 0 && reports.every((report) => report.ok);
  const unset = notConfigured.map((family) => {
    const names = providerEnvNames(family);
    return `     ${family}: not configured (set ${names.baseUrl} and ${names.apiKey})`;
  });
  const lines = [
    ...reports.map(describeCheck),
    ...(configured.length === 0 ? ["no vendor family is configured: nothing was checked"] : []),
    ...unset,
  ];
  print({ ok, families: reports, not_configured: notConfigured }, lines.join("\n"));
  return ok ? 0 : 1;
}
