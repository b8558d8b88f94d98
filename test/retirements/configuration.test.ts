import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../core/index.js";

// MODEL_RETIREMENTS, read at start: dates as a day or a date-time with offset, and a setting the catalog cannot
// honour stops the process naming the problem.

const REQUIRED = {
  DATABASE_URL: "postgres://postgres@127.0.0.1:5432/unused",
  ARTIFACT_URL_SECRET: "retirement-config-test-secret-0123456789",
  CALLBACK_SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
};
const load = (retirements: unknown) => loadConfig({ ...REQUIRED, MODEL_RETIREMENTS: typeof retirements === "string" ? retirements : JSON.stringify(retirements) });
const problem = (retirements: unknown): string => {
  try {
    load(retirements);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the configuration was accepted");
};

describe("MODEL_RETIREMENTS", () => {
  it("reads a day as 00:00 UTC, a date-time with its offset, and deprecates from the start when no deprecation is given", () => {
    const before = Date.now();
    const config = load({
      "vendorB-2-mini": { retires_at: "2030-01-01", deprecated_at: "2029-12-01T09:30:00+02:00", replacement: "vendorB-2" },
      "vendorA-speech-2.8-turbo": { retires_at: "2031-06-01T12:00:00Z" },
    });
    expect(config.modelRetirements).toEqual([
      {
        model: "vendorB-2-mini",
        deprecatedAt: new Date("2029-12-01T07:30:00Z"),
        retiresAt: new Date("2030-01-01T00:00:00Z"),
        replacement: "vendorB-2",
        source: "configuration",
      },
      expect.objectContaining({ model: "vendorA-speech-2.8-turbo", retiresAt: new Date("2031-06-01T12:00:00Z"), replacement: null }),
    ]);
    const deprecatedAt = (config.modelRetirements[1]?.deprecatedAt as Date).getTime();
    expect(deprecatedAt).toBeGreaterThanOrEqual(before);
    expect(deprecatedAt).toBeLessThanOrEqual(Date.now());
  });

  it("stops the process on an unknown model, a foreign replacement, a deprecation after the retirement or a bad date", () => {
    expect(problem({ "no-such-model": { retires_at: "2030-01-01" } })).toContain("MODEL_RETIREMENTS: no-such-model: no such model in the catalog");
    expect(problem({ "vendorB-2-mini": { retires_at: "2030-01-01", replacement: "vendorA-speech-2.8-hd" } })).toContain("the replacement must be another catalog model");
    expect(problem({ "vendorB-2-mini": { retires_at: "2030-01-01", deprecated_at: "2030-02-01" } })).toContain("deprecated_at is after retires_at");
    expect(problem({ "vendorB-2-mini": { retires_at: "next week" } })).toContain("MODEL_RETIREMENTS");
    expect(problem({ "vendorB-2-mini": { retires_at: "2030-01-01", sunset: "2030-01-01" } })).toContain("MODEL_RETIREMENTS");
    expect(problem("{not json")).toContain("must be JSON");
  });
});
