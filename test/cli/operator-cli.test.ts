import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, svc, type CliResult } from "../cli/svc-process.js";
import { startHarness, TEST_CALLBACK_SECRET_KEY, type ApiResponse, type Harness } from "../support/harness.js";
import { eventually } from "../support/wait.js";

// The operator CLI `bin/svc.js` as a real child process against the harness' database; its effects are
// observed through the harness' REST server.

let h: Harness;
beforeAll(async () => {
  ensureBuilt();
  h = await startHarness();
}, 300_000);
afterAll(async () => h?.close());

const cli = (...args: string[]) =>
  svc(args, {
    env: {
      ...process.env,
      DATABASE_URL: h.databaseUrl,
      // Keeps the CLI from generating a secret file in .data/.
      ARTIFACT_URL_SECRET: "cli-test-secret-cli-test-secret-0123456789",
      CALLBACK_SECRET_ENCRYPTION_KEY: TEST_CALLBACK_SECRET_KEY,
      LOG_LEVEL: "silent",
    },
  });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function json(result: CliResult): any {
  expect(result.code, `exit code; stderr: ${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout);
}

function expectError(response: ApiResponse, status: number, code: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
}

describe("svc admin CLI", () => {
  it("creates a tenant and keys, grants credits, revokes a key and disables the tenant", async () => {
    const tenant = json(await cli("tenant", "create", "--name", "acme", "--credits", "12.5", "--json"));
    expect(tenant.tenant_id).toMatch(/\S/);
    expect(tenant.name).toBe("acme");
    const tenantId: string = tenant.tenant_id;

    const [limitedRun, fullRun] = await Promise.all([
      cli("key", "create", tenantId, "--areas", "tasks,speech", "--json"),
      cli("key", "create", tenantId, "--json"),
    ]);
    const limited = json(limitedRun);
    const full = json(fullRun);
    expect(limited.api_key).toMatch(/^sk_us_[0-9A-Za-z]{32}$/);
    expect(full.api_key).toMatch(/^sk_us_[0-9A-Za-z]{32}$/);
    expect(limited.api_key).not.toBe(full.api_key);
    expect(limited.tenant_id).toBe(tenantId);
    expect(limited.areas).toEqual(["tasks", "speech"]);

    const list = await h.request("GET", "/v1/tasks", { apiKey: limited.api_key });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expectError(await h.request("GET", "/v1/credits", { apiKey: limited.api_key }), 403, "forbidden");

    const before = await h.request("GET", "/v1/credits", { apiKey: full.api_key });
    expect(before.status).toBe(200);
    expect(before.body.available_credits).toBe("12.500000");

    const grant = json(await cli("credits", "grant", tenantId, "2.5", "--json"));
    expect(grant.tenant_id).toBe(tenantId);
    const after = await h.request("GET", "/v1/credits", { apiKey: full.api_key });
    expect(after.status).toBe(200);
    expect(after.body.available_credits).toBe("15.000000");

    const revoked = json(await cli("key", "revoke", limited.key_id, "--json"));
    expect(revoked).toMatchObject({ key_id: limited.key_id, status: "revoked" });
    expectError(await h.request("GET", "/v1/tasks", { apiKey: limited.api_key }), 401, "invalid_api_key");
    // The other key of the tenant is untouched.
    expect((await h.request("GET", "/v1/tasks", { apiKey: full.api_key })).status).toBe(200);

    const disabled = json(await cli("tenant", "disable", tenantId, "--json"));
    expect(disabled).toMatchObject({ tenant_id: tenantId, status: "disabled" });
    expectError(await h.request("GET", "/v1/credits", { apiKey: full.api_key }), 403, "tenant_disabled");
    // The harness' own tenant is not affected.
    expect((await h.request("GET", "/v1/credits")).status).toBe(200);
  }, 300_000);

  it("sets spend limits on a new key and on a tenant, and a tenant's retention", async () => {
    const tenantId: string = json(await cli("tenant", "create", "--name", "limited", "--credits", "5", "--json")).tenant_id;
    const key = json(await cli("key", "create", tenantId, "--spend-limit", "0/day", "--json"));
    expect(key.spend_limit).toEqual({ period: "day", limit_credits: "0.000000" });
    const speech = { voice: "en_female_aria", input: "hello", model: "vendorA-speech-2.8-hd" };
    const refused = await h.request("POST", "/v1/audio/speech", { body: speech, idempotencyKey: "cli-spend-1", apiKey: key.api_key });
    expectError(refused, 402, "insufficient_balance");
    expect(refused.body.error.details.spend_limit).toMatchObject({ scope: "key", owner: key.key_id, period: "day" });

    expect(json(await cli("key", "spend-limit", key.key_id, "none", "--json"))).toMatchObject({ scope: "key", spend_limit: null });
    expect(json(await cli("tenant", "spend-limit", tenantId, "2.5/month", "--json"))).toMatchObject({
      scope: "tenant",
      spend_limit: { period: "month", limit_credits: "2.500000" },
    });
    const credits = await h.request("GET", "/v1/credits", { apiKey: key.api_key });
    expect(credits.body.spend_limits).toMatchObject([{ scope: "tenant", owner: tenantId, period: "month", limit_credits: "2.500000" }]);
    expect((await cli("key", "create", tenantId, "--spend-limit", "5/week", "--json")).code).not.toBe(0);

    expect(json(await cli("tenant", "retention", tenantId, "90", "--json"))).toEqual({ tenant_id: tenantId, artifact_retention_days: 90, source: "tenant" });
    expect(json(await cli("tenant", "retention", tenantId, "default", "--json"))).toMatchObject({ artifact_retention_days: 30, source: "default" });
  }, 300_000);

  it("retires a model and clears it again, the running service following without a restart", async () => {
    const model = "vendorA-speech-2.8-hd";
    const speak = () =>
      h.request("POST", "/v1/audio/speech", { body: { model, voice: "en_female_aria", input: "hi" }, idempotencyKey: `retire-${Math.random()}` });
    expect((await speak()).status).toBe(202);

    const retired = json(await cli("model", "retire", model, "--on", "2020-01-01", "--replacement", "vendorA-speech-2.8-turbo", "--json"));
    expect(retired).toMatchObject({ model, lifecycle: "retired", retires_at: "2020-01-01T00:00:00.000Z", replacement: "vendorA-speech-2.8-turbo", source: "operator" });
    // The REST server hears of the change by notification, a moment after the CLI's commit.
    const refused = await eventually("the retirement at the REST server", 10_000, async () => {
      const answer = await speak();
      return answer.status === 400 ? answer : undefined;
    });
    expect(refused.body.error).toMatchObject({ code: "unsupported_model", details: { reason: "retired", replacement: "vendorA-speech-2.8-turbo" } });
    const listed = json(await cli("model", "list", "--json"));
    expect(listed.find((m: { model: string }) => m.model === model)).toMatchObject({ live: false, lifecycle: "retired" });

    expect(json(await cli("model", "retire", model, "--clear", "--json"))).toMatchObject({ model, lifecycle: "active", retires_at: null });
    await eventually("the cleared retirement at the REST server", 10_000, async () => ((await speak()).status === 202 ? true : undefined));

    const unknown = await cli("model", "retire", "no-such-model", "--on", "2030-01-01");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no such model in the catalog");
    const badDate = await cli("model", "retire", model, "--on", "next week");
    expect(badDate.code).not.toBe(0);
    expect(badDate.stderr).toContain("--on must be a day");
  });

  it("exits non-zero on an unknown command and on an operation that fails", async () => {
    const [unknown, missingKey] = await Promise.all([
      cli("tenant", "explode", "--json"),
      cli("key", "revoke", "key_does_not_exist", "--json"),
    ]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.code).not.toBeNull();
    expect(unknown.stderr).toMatch(/unknown command/);
    expect(missingKey.code).not.toBe(0);
    expect(missingKey.code).not.toBeNull();
    expect(JSON.parse(missingKey.stdout).error).toMatch(/key_does_not_exist/);
  }, 300_000);
});
