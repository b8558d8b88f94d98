import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITIES, createCore, loadConfig, OPERATIONS, type Core } from "../../core/index.js";
import { buildRestApp } from "../../rest-server/app.js";
import { createTestDatabase, type TestDatabase } from "../support/databases.js";
import { TEST_CALLBACK_SECRET_KEY } from "../support/harness.js";

// The capability table and the operations table are the REST server's whole list of routes: it serves each of
// their rows once and nothing else, counted like fastify's error-code table. A route registered outside them,
// or a row nobody serves, fails here.

const tableRoutes = [...CAPABILITIES.map((capability) => `POST ${capability.path}`), ...OPERATIONS.map((operation) => `${operation.method} ${operation.path}`)];

let database: TestDatabase;
let core: Core;
let app: FastifyInstance;
beforeAll(async () => {
  database = await createTestDatabase();
  core = createCore(
    loadConfig({ DATABASE_URL: database.url, ARTIFACT_URL_SECRET: "x".repeat(32), CALLBACK_SECRET_ENCRYPTION_KEY: TEST_CALLBACK_SECRET_KEY }),
    { dbPoolSize: 1 },
  );
  app = buildRestApp(core);
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await core?.close();
  await database?.drop();
});

describe("the operations table", () => {
  it("names each route once", () => {
    expect(new Set(tableRoutes).size).toBe(tableRoutes.length);
    expect(new Set(OPERATIONS.map((operation) => operation.operationId)).size).toBe(OPERATIONS.length);
  });

  it("is exactly the list of routes the REST server serves", () => {
    const served = app.registeredRoutes.map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, "{$1}")}`);
    expect(served).toHaveLength(CAPABILITIES.length + OPERATIONS.length);
    expect([...served].sort()).toEqual([...tableRoutes].sort());
  });

  it("answers HEAD on the paths with a GET row and on no other", () => {
    const readable = new Set(OPERATIONS.filter((operation) => operation.method === "GET").map((operation) => operation.path));
    for (const path of new Set([...CAPABILITIES.map((capability) => capability.path), ...OPERATIONS.map((operation) => operation.path)])) {
      expect(app.hasRoute({ method: "HEAD", url: path.replace(/\{(\w+)\}/g, ":$1") }), `HEAD ${path}`).toBe(readable.has(path));
    }
  });
});
