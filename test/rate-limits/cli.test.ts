import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_UPLOAD_QUOTA } from "../../core/assets/quota.js";
import { ensureBuilt, svc } from "../cli/svc-process.js";
import { startHarness, type Harness } from "../support/harness.js";

// `svc tenant limits` as a real child process on the harness' database; the REST server applies what it sets.

let h: Harness;
beforeAll(async () => {
  ensureBuilt();
  h = await startHarness();
}, 300_000);
afterAll(async () => h?.close());

const cli = (...args: string[]) => svc(args, { env: { ...process.env, ...h.env, LOG_LEVEL: "silent" } });

describe("svc tenant limits", () => {
  it("shows the defaults, sets a tenant's own budgets, which the server applies, and restores the defaults", async () => {
    const t = await h.newTenant("10");
    const shown = await cli("tenant", "limits", t.tenantId, "--json");
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({
      tenant_id: t.tenantId,
      window_seconds: 60,
      per_key: 60000,
      per_key_source: "default",
      per_tenant: 120000,
      per_tenant_source: "default",
      upload_max_bytes: DEFAULT_UPLOAD_QUOTA.maxBytes,
      upload_max_bytes_source: "default",
      upload_max_count: DEFAULT_UPLOAD_QUOTA.maxCount,
      upload_max_count_source: "default",
    });

    const set = await cli("tenant", "limits", t.tenantId, "--per-key", "2", "--json");
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ per_key: 2, per_key_source: "tenant", per_tenant: 120000, per_tenant_source: "default" });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.request("GET", "/v1/tasks", { apiKey: t.apiKey })).status);
    expect(statuses).toEqual([200, 200, 429]);

    const restored = await cli("tenant", "limits", t.tenantId, "--per-key", "default", "--per-tenant", "500", "--json");
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ per_key: 60000, per_key_source: "default", per_tenant: 500, per_tenant_source: "tenant" });
    // A change takes effect within RATE_LIMIT_SYNC_MS: the server meets the store that often, sooner for a client
    // asking meanwhile (its counters are kept fresh). Asked until then, each refusal counts against the new budget.
    const deadline = Date.now() + 10_000;
    let after = await h.request("GET", "/v1/tasks", { apiKey: t.apiKey });
    while (after.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, h.core.config.rateLimits.syncMs));
      after = await h.request("GET", "/v1/tasks", { apiKey: t.apiKey });
    }
    expect(after.status).toBe(200);
    expect(after.headers.get("x-ratelimit-limit")).toBe("500");
  }, 300_000);

  it("sets a tenant's upload quota, which the server applies, and restores the default", async () => {
    const t = await h.newTenant("10");
    const wav = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4, 1), Buffer.from("WAVE"), Buffer.alloc(52, 1)]);
    const upload = () => h.request("POST", "/v1/assets", { apiKey: t.apiKey, body: { content_base64: wav.toString("base64") } });
    const set = await cli("tenant", "limits", t.tenantId, "--upload-max-count", "1", "--json");
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ upload_max_count: 1, upload_max_count_source: "tenant", upload_max_bytes_source: "default" });
    expect((await upload()).status).toBe(201);
    const refused = await upload();
    expect(refused.status).toBe(413);
    expect(refused.body.error.code).toBe("media_too_large");
    const restored = await cli("tenant", "limits", t.tenantId, "--upload-max-count", "default", "--json");
    expect(JSON.parse(restored.stdout)).toMatchObject({ upload_max_count: DEFAULT_UPLOAD_QUOTA.maxCount, upload_max_count_source: "default" });
    expect((await upload()).status).toBe(201);
    const bad = await cli("tenant", "limits", t.tenantId, "--upload-max-bytes", "-1");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--upload-max-bytes must be a whole number");
  }, 300_000);

  it("refuses a budget that is not a positive whole number, and an unknown tenant", async () => {
    const t = await h.newTenant("10");
    const values = ["0", "2.5"];
    const [unknown, ...results] = await Promise.all([
      cli("tenant", "limits", "ten_unknown", "--json"),
      ...values.map((value) => cli("tenant", "limits", t.tenantId, `--per-tenant=${value}`)),
    ]);
    for (const [i, result] of results.entries()) {
      expect(result.code, values[i]).toBe(1);
      expect(result.stderr).toContain("--per-tenant must be a whole number");
    }
    expect(unknown!.code).toBe(1);
    expect(JSON.parse(unknown!.stdout).error).toContain("No tenant ten_unknown");
  }, 300_000);
});
