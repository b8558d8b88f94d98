import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness.js";

const ALLOWED = "https://app.example.com";
let withCors: Harness;
let without: Harness;
beforeAll(async () => {
  withCors = await startHarness({ env: { CORS_ALLOWED_ORIGINS: `${ALLOWED}, http://localhost:5173` } });
  without = await startHarness();
});
afterAll(async () => {
  await withCors?.close();
  await without?.close();
});

const PREFLIGHT = { "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, idempotency-key" };

describe("CORS", () => {
  it("answers a configured origin's preflight and requests, errors included", async () => {
    const preflight = await withCors.request("OPTIONS", "/v1/audio/speech", { apiKey: null, headers: { origin: ALLOWED, ...PREFLIGHT } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("idempotency-key");
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();

    const read = await withCors.request("GET", "/v1/credits", { headers: { origin: ALLOWED } });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(read.headers.get("access-control-expose-headers")).toContain("X-Request-Id");
    expect(read.headers.get("vary")).toContain("Origin");

    const refused = await withCors.request("GET", "/v1/credits", { apiKey: null, headers: { origin: "http://localhost:5173" } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
  });

  it("sends no CORS header to an origin not configured", async () => {
    const preflight = await withCors.request("OPTIONS", "/v1/audio/speech", { apiKey: null, headers: { origin: "https://evil.example", ...PREFLIGHT } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.status).not.toBe(204);
    const read = await withCors.request("GET", "/v1/credits", { headers: { origin: "https://app.example.com.evil.example" } });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("is off unless configured", async () => {
    const preflight = await without.request("OPTIONS", "/v1/audio/speech", { apiKey: null, headers: { origin: ALLOWED, ...PREFLIGHT } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const read = await without.request("GET", "/v1/credits", { headers: { origin: ALLOWED } });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses a setting that is not a list of origins", async () => {
    const { loadConfig } = await import("../../core/index.js");
    const base = { ...without.env };
    expect(loadConfig({ ...base, CORS_ALLOWED_ORIGINS: "https://app.example.com" }).corsAllowedOrigins).toEqual(["https://app.example.com"]);
    expect(() => loadConfig({ ...base, CORS_ALLOWED_ORIGINS: "*" })).toThrow(/CORS_ALLOWED_ORIGINS/);
    expect(() => loadConfig({ ...base, CORS_ALLOWED_ORIGINS: "https://app.example.com/path" })).toThrow(/CORS_ALLOWED_ORIGINS/);
    expect(loadConfig(base).corsAllowedOrigins).toEqual([]);
  });
});
