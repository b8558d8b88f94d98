import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configurationSettings, loadConfig } from "../../core/config.js";

const doc = readFileSync(path.resolve(import.meta.dirname, "../../docs/configuration.md"), "utf8");
const main = doc.slice(0, doc.indexOf("## Used by the local tooling only"));

function documented(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const match of main.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]+) \|/gm)) rows.set(match[1] as string, (match[2] as string).trim());
  return rows;
}

describe("docs/configuration.md", () => {
  it("lists exactly the settings of core/config.ts, each with its default", () => {
    const rows = documented();
    const settings = configurationSettings();
    expect([...rows.keys()].sort()).toEqual(settings.map((s) => s.name).sort());
    for (const setting of settings) {
      const cell = rows.get(setting.name) as string;
      if (setting.default !== null) expect({ name: setting.name, cell }).toEqual({ name: setting.name, cell: `\`${setting.default}\`` });
      else expect({ name: setting.name, cell: cell.startsWith("—") }).toEqual({ name: setting.name, cell: true });
      if (setting.required) expect(cell, setting.name).toContain("required");
    }
  });

  it("stops on an invalid setting with a message naming it", () => {
    const base = { DATABASE_URL: "postgres://x/y", ARTIFACT_URL_SECRET: "s".repeat(32), CALLBACK_SECRET_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64") };
    expect(() => loadConfig(base)).not.toThrow();
    expect(() => loadConfig({ ...base, PORT: "99999" })).toThrow(/PORT/);
    expect(() => loadConfig({ ...base, ARTIFACT_URL_SECRET: undefined })).toThrow(/ARTIFACT_URL_SECRET/);
    expect(() => loadConfig({ ...base, ARTIFACT_STORE: "s3" })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ ...base, VENDOR_A_BASE_URL: "not a url" })).toThrow(/VENDOR_A_BASE_URL/);
  });
});
