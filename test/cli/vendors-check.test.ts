import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerEnvNames, VENDOR_FAMILIES } from "../../core/config.js";
import type { VendorCheckReport } from "../../core/providers/vendor-checks.js";
import { startEmulator, type RunningEmulator } from "../../emulator/server.js";
import { ensureBuilt, svc, type CliResult } from "./svc-process.js";

// `svc vendors check` against the bundled emulator, which accepts one key here: each family's cheap call is
// answered in its vendor's shape, so a right key reads "authenticated", a wrong one "not authenticated", and a
// base URL nobody listens on "unreachable". Never run against the real vendors.
const KEY = "vendors-check-key";
let emulator: RunningEmulator;
let closedPort: number;

// A port that was free a moment ago and has no listener.
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  ensureBuilt();
  emulator = await startEmulator({ port: 0, apiKeys: [KEY] });
  closedPort = await freePort();
}, 300_000);
afterAll(async () => emulator?.close());

// The caller's environment without any vendor setting of its own, plus the ones given.
function envWith(vendors: Record<string, string>): Record<string, string | undefined> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VENDOR_")));
  return { ...clean, LOG_LEVEL: "silent", ...vendors };
}

function vendorsAt(key: string, families: readonly string[] = VENDOR_FAMILIES): Record<string, string> {
  return Object.fromEntries(
    families.flatMap((family) => {
      const names = providerEnvNames(family as (typeof VENDOR_FAMILIES)[number]);
      return [
        [names.baseUrl, `${emulator.url}/${family}`],
        [names.apiKey, key],
      ];
    }),
  );
}

const check = (args: string[], vendors: Record<string, string>) => svc(["vendors", "check", ...args], { env: envWith(vendors) });

function reportOf(result: CliResult): { ok: boolean; families: VendorCheckReport[]; not_configured: string[] } {
  return JSON.parse(result.stdout) as { ok: boolean; families: VendorCheckReport[]; not_configured: string[] };
}

describe("svc vendors check", () => {
  it("finds every family reachable and authenticated with the right key, and compares vendorD's model listing", async () => {
    const result = await check(["--json"], vendorsAt(KEY));
    const report = reportOf(result);
    expect(report.families.map((family) => family.family)).toEqual([...VENDOR_FAMILIES]);
    for (const family of report.families) {
      expect(family, family.detail).toMatchObject({ reachable: true, authenticated: true });
    }
    const listed = report.families.find((family) => family.family === "vendorD")?.models;
    expect(typeof listed).toBe("object");
    expect(report.families.find((family) => family.family === "vendorG")).toMatchObject({ call: "GET /api/v1/generate/credit", models: "not listed by vendor", ok: true });
    expect(result.code, result.stderr).toBe(report.ok ? 0 : 1);
    expect(report.not_configured).toEqual([]);
  });

  it("says 'not authenticated' for every family when the key is wrong, and exits 1", async () => {
    const result = await check(["--json"], vendorsAt("not-the-key"));
    expect(result.code).toBe(1);
    for (const family of reportOf(result).families) {
      expect(family, family.detail).toMatchObject({ reachable: true, authenticated: false, ok: false, models: "not checked" });
    }
    const text = await check(["vendorB"], vendorsAt("not-the-key", ["vendorB"]));
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("FAIL vendorB  reachable, not authenticated");
  });

  it("says 'unreachable' for a base URL nobody answers, checking only the family named", async () => {
    const vendors = { ...vendorsAt(KEY), VENDOR_G_BASE_URL: `http://127.0.0.1:${closedPort}/vendorG` };
    const result = await check(["vendorG", "--json"], vendors);
    expect(result.code).toBe(1);
    const report = reportOf(result);
    expect(report.families).toHaveLength(1);
    expect(report.families[0]).toMatchObject({ family: "vendorG", reachable: false, authenticated: false, ok: false });
    const text = await check(["vendorG"], vendors);
    expect(text.stdout).toContain("FAIL vendorG  unreachable");
  });

  it("passes for one family configured alone, naming the ones left unset", async () => {
    const result = await check([], vendorsAt(KEY, ["vendorG"]));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("ok   vendorG  reachable, authenticated; not listed by vendor");
    expect(result.stdout).toContain("vendorA: not configured (set VENDOR_A_BASE_URL and VENDOR_A_API_KEY)");
  });

  it("exits 1 when nothing is configured, and refuses an unknown family or an extra argument (2)", async () => {
    const none = await check([], {});
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("no vendor family is configured");
    const unknown = await check(["vendorZ"], vendorsAt(KEY));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown family "vendorZ"');
    const extra = await check(["vendorA", "vendorB"], vendorsAt(KEY));
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('unexpected argument "vendorB"');
  });
});
