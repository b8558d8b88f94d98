import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS, NOUNS } from "../../cli/commands.js";
import { startHarness, type Harness } from "../support/harness.js";
import { ensureBuilt, svc, type CliResult } from "./svc-process.js";

// `svc`'s arguments as a person types (or pastes) them: help on every noun and verb, refusals that name what is
// wrong and change nothing, and the commands that show a tenant, its keys and its credits.
let h: Harness;
beforeAll(async () => {
  ensureBuilt();
  h = await startHarness();
}, 300_000);
afterAll(async () => h?.close());

const run = (...args: string[]) => svc(args, { env: { ...process.env, ...h.env, LOG_LEVEL: "silent" } });

function refused(result: CliResult, code: number, message: string | RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stderr).toMatch(message);
}

async function keyCount(tenantId: string): Promise<number> {
  const listed = await run("key", "list", tenantId, "--json");
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout).length;
}

describe("svc arguments", () => {
  it("--help on svc, every noun and every verb exits 0 with that command's usage", async () => {
    const calls = [["--help"], ["-h"], ...NOUNS.map((noun) => [noun, "--help"]), ...COMMANDS.map((c) => [c.noun, ...(c.verb ? c.verb.split(" ") : []), "--help"])];
    const results = await Promise.all(calls.map((args) => svc(args, { env: { PATH: process.env.PATH ?? "" } })));
    for (const [i, result] of results.entries()) {
      const args = calls[i] as string[];
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
      expect(result.stdout).toContain(args.length > 2 ? `usage: svc ${args.slice(0, -1).join(" ")}` : "svc");
    }
  }, 300_000);

  it("--version prints the package's version and exits 0", async () => {
    const manifest = JSON.parse(await readFile(path.resolve(import.meta.dirname, "../../package.json"), "utf8")) as { version: string };
    const result = await svc(["--version"], { env: { PATH: process.env.PATH ?? "" } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${manifest.version}\n`);
  }, 300_000);

  it("refuses unknown commands, options and extra arguments, and a pasted usage line, creating nothing", async () => {
    const t = await h.newTenant("1");
    const before = await keyCount(t.tenantId);
    const [bare, noun, verb, option, extra, brackets, missing, noValue, twice] = await Promise.all([
      run(),
      run("tenants", "list"),
      run("tenant", "explode"),
      run("key", "create", t.tenantId, "--area", "tasks"),
      run("key", "create", t.tenantId, "garbage"),
      run("key", "create", t.tenantId, "[--areas", "tasks,speech]", "--json"),
      run("key", "create"),
      run("key", "create", t.tenantId, "--areas"),
      run("key", "create", t.tenantId, "--name", "a", "--name", "b"),
    ]);
    refused(bare, 2, /svc — operate the media task service/);
    refused(noun, 2, /unknown command "tenants"; the commands are tenant, key, credits, token, oauth, model, running-limit, vendors, mcp/);
    refused(verb, 2, /unknown command "svc tenant explode"; "svc tenant" takes create, list, show/);
    refused(option, 2, /unknown option "--area" for "svc key create"; it takes --name, --areas, --save, --spend-limit, --json/);
    refused(extra, 2, /unexpected argument "garbage": svc key create TENANT_ID/);
    refused(brackets, 2, /unexpected argument "\[--areas" \(square brackets in a usage line mark an optional part/);
    expect(JSON.parse(brackets.stdout).error).toMatch(/unexpected argument/);
    refused(missing, 2, /TENANT_ID is required/);
    refused(noValue, 2, /--areas needs a value/);
    refused(twice, 2, /--name is given twice/);
    expect(await keyCount(t.tenantId)).toBe(before);
  }, 300_000);

  it("refuses a negative, zero or malformed amount and an unknown area with the reason", async () => {
    const t = await h.newTenant("1");
    const [negative, zero, words, area] = await Promise.all([
      run("credits", "grant", t.tenantId, "-5"),
      run("credits", "grant", t.tenantId, "0"),
      run("credits", "grant", t.tenantId, "ten"),
      run("key", "create", t.tenantId, "--areas", "tasks,everything"),
    ]);
    refused(negative, 1, /AMOUNT must be a positive amount of credits.*got "-5"/);
    refused(zero, 1, /AMOUNT must be more than 0/);
    refused(words, 1, /got "ten"/);
    refused(area, 1, /unknown area\(s\): everything/);
    expect((await h.request("GET", "/v1/credits", { apiKey: t.apiKey })).body.available_credits).toBe("1.000000");
  }, 300_000);

  it("key list, credits show and tenant show say what the API sees", async () => {
    const t = await h.newTenant("3");
    const limited = JSON.parse((await run("key", "create", t.tenantId, "--areas", "tasks,speech", "--name", "bot", "--json")).stdout);
    expect(limited.areas).toEqual(["tasks", "speech"]);
    expect((await h.request("GET", "/v1/credits", { apiKey: limited.api_key })).status).toBe(403);
    expect((await run("key", "revoke", limited.key_id)).code).toBe(0);
    expect((await run("credits", "grant", t.tenantId, "1.5", "--note", "top-up")).code).toBe(0);

    const [keys, credits, shown, text] = await Promise.all([
      run("key", "list", t.tenantId, "--json"),
      run("credits", "show", t.tenantId, "--limit", "1", "--json"),
      run("tenant", "show", t.tenantId, "--json"),
      run("credits", "show", t.tenantId),
    ]);
    expect(JSON.parse(keys.stdout)).toEqual([
      expect.objectContaining({ key_id: t.keyId, status: "active", areas: null }),
      expect.objectContaining({ key_id: limited.key_id, name: "bot", status: "revoked", areas: ["tasks", "speech"], prefix: expect.stringMatching(/^sk_us_/) }),
    ]);
    expect(keys.stdout).not.toContain(limited.api_key);
    const api = (await h.request("GET", "/v1/credits", { apiKey: t.apiKey })).body;
    const view = JSON.parse(credits.stdout);
    expect(view).toMatchObject({ tenant_id: t.tenantId, available_credits: api.available_credits, granted_credits: "4.500000" });
    expect(view.entries).toEqual([expect.objectContaining({ kind: "grant", amount_credits: "1.500000", note: "top-up" })]);
    expect(JSON.parse(shown.stdout)).toMatchObject({ tenant_id: t.tenantId, status: "active", available_credits: "4.500000", active_keys: 1, revoked_keys: 1 });
    expect(text.stdout).toContain("4.500000 available");
    expect(text.stdout).toContain("top-up");

    refused(await run("tenant", "show", "ten_missing"), 1, /No tenant ten_missing/);
  }, 300_000);
});
