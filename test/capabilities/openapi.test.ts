import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITIES, createCore, loadConfig } from "../../core/index.js";
import { buildRestApp } from "../../rest-server/app.js";
import { startHarness, TEST_CALLBACK_SECRET_KEY, type Harness } from "../support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe("OpenAPI document", () => {
  it("validates as OpenAPI 3.1", async () => {
    const response = await h.request("GET", "/v1/openapi.json");
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe("3.1.0");
    const result = await new Validator().validate(response.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  // Redocly's strict ruleset (every warning an error) plus descriptions on every operation, parameter and tag.
  // A deployment's own server URL (localhost here) is as intended.
  it("passes the Redocly linter with no problems", async () => {
    const directory = await mkdtemp(join(tmpdir(), "openapi-lint-"));
    try {
      await writeFile(join(directory, "openapi.json"), JSON.stringify((await h.request("GET", "/v1/openapi.json")).body));
      await writeFile(
        join(directory, "redocly.yaml"),
        [
          "extends:",
          "  - recommended-strict",
          "rules:",
          "  no-server-example.com: off",
          "  operation-description: error",
          "  parameter-description: error",
          "  tag-description: error",
          "",
        ].join("\n"),
      );
      // Exit status 1 on any problem (the strict ruleset makes warnings errors); the output says which.
      const lint = await promisify(execFile)(
        join(process.cwd(), "node_modules/.bin/redocly"),
        ["lint", "openapi.json", "--config", "redocly.yaml", "--format", "stylish"],
        { cwd: directory, env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
      ).then(
        (done) => ({ status: 0, output: `${done.stdout}${done.stderr}` }),
        (error: { code: number; stdout: string; stderr: string }) => ({ status: error.code, output: `${error.stdout}${error.stderr}` }),
      );
      expect(lint, lint.output).toMatchObject({ status: 0 });
      expect(lint.output).toContain("Your API description is valid");
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("describes every field of every answer and request body", async () => {
    const document = (await h.request("GET", "/v1/openapi.json")).body;
    const undescribed: string[] = [];
    type Schema = { description?: string; $ref?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };
    const walk = (schema: Schema, path: string) => {
      for (const branch of schema.anyOf ?? []) walk(branch, path);
      if (schema.items) walk(schema.items, `${path}[]`);
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        const described = property.description ?? property.$ref ?? property.anyOf?.find((b) => b.description ?? b.$ref);
        if (!described) undescribed.push(`${path}.${name}`);
        walk(property, `${path}.${name}`);
      }
    };
    for (const [name, schema] of Object.entries(document.components.schemas as Record<string, Schema>)) walk(schema, name);
    for (const [name, body] of Object.entries(document.components.requestBodies as Record<string, { content: Record<string, { schema: Schema }> }>)) {
      walk(body.content["application/json"]!.schema, name);
    }
    expect(undescribed).toEqual([]);
  });

  it("documents exactly the routes the REST server registers", async () => {
    const config = loadConfig({
      DATABASE_URL: h.databaseUrl,
      ARTIFACT_URL_SECRET: "x".repeat(32),
      CALLBACK_SECRET_ENCRYPTION_KEY: TEST_CALLBACK_SECRET_KEY,
    });
    const core = createCore(config, { dbPoolSize: 1 });
    const app = buildRestApp(core);
    await app.ready();
    const registered = app.registeredRoutes.map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, "{$1}")}`).sort();
    await app.close();
    await core.close();
    const document = (await h.request("GET", "/v1/openapi.json")).body;
    const documented = Object.entries(document.paths as Record<string, object>)
      .flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(documented).toEqual(registered);
    for (const capability of CAPABILITIES) expect(document.paths[capability.path].post["x-capability"]).toBe(capability.id);
  });

  it("serves a readable reference page", async () => {
    const response = await fetch(`${h.baseUrl}/v1/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    for (const capability of CAPABILITIES) expect(html).toContain(capability.path);
  });
});
