import { existsSync, readFileSync, rmSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { adminUrl, createTestDatabase, type TestDatabase } from "../support/databases.js";
import { svc } from "../cli/svc-process.js";
import { makeCheckout, shellEnv, stackPorts, startStack, type Stack } from "./checkout.js";

// `npm start` in a fresh checkout, as a new user runs it (on the machine's Postgres through DATABASE_URL, so no
// embedded server is created here): a first start that fails keeps its key, the CLI finds the running stack's
// database with no settings of its own, one Ctrl-C stops everything once and in order, and a start that finds
// tenants but no key file says which command makes one.

let checkout: string;
let database: TestDatabase;
let other: TestDatabase;
let ports: Record<string, string>;
const stacks: Stack[] = [];

beforeAll(async () => {
  checkout = makeCheckout();
  [database, other] = await Promise.all([createTestDatabase(), createTestDatabase()]);
}, 300_000);

afterAll(async () => {
  for (const stack of stacks) {
    stack.interrupt();
    await stack.exited;
  }
  await Promise.all([database?.drop(), other?.drop()]);
  if (checkout) rmSync(checkout, { recursive: true, force: true });
}, 60_000);

// Ports are chosen again before each start: one chosen minutes earlier may have been taken by then.
function start(): Stack {
  const stack = startStack(checkout, shellEnv({ DATABASE_URL: database.url, ...ports }));
  stacks.push(stack);
  return stack;
}

async function credits(key: string): Promise<number> {
  return (await fetch(`http://127.0.0.1:${ports.PORT}/v1/credits`, { headers: { authorization: `Bearer ${key}` } })).status;
}

const keyFile = () => path.join(checkout, ".data", "dev-api-key");
const outside = tmpdir();

describe("npm start and svc in a fresh checkout", () => {
  it("svc with no database to use refuses, names the ways out and creates nothing", async () => {
    const result = await svc(["tenant", "list"], { env: shellEnv(), checkout, cwd: outside });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("no database to use");
    expect(result.stderr).toContain("--create-database");
    expect(result.stderr).toContain("DATABASE_URL");
    expect(existsSync(path.join(checkout, ".data", "postgres"))).toBe(false);
  });

  it("a first start that fails after creating the tenant has already printed and saved its key", async () => {
    // The MCP server's port is taken: that child fails, and the whole start with it.
    // (It drops what connects to it: start's wait for the MCP server may reach it first.)
    const blocker: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => blocker.once("error", reject).listen(0, "127.0.0.1", resolve));
    try {
      ports = { ...(await stackPorts()), MCP_PORT: String((blocker.address() as AddressInfo).port) };
      const stack = start();
      await stack.waitFor("mcp exited (1); stopping everything");
      const exit = await stack.exited;
      expect(exit.code, stack.output()).toBe(1);
      const printed = /export SVC_API_KEY=(sk_us_\S+)/.exec(stack.output())?.[1];
      expect(printed, stack.output()).toBeDefined();
      expect(readFileSync(keyFile(), "utf8").trim()).toBe(printed);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 240_000);

  it("the next start serves that key; svc without DATABASE_URL acts on the running stack's database", async () => {
    ports = await stackPorts();
    const stack = start();
    await stack.waitFor("service ready");
    expect(stack.output()).not.toContain("first start");
    // An idle local stack holds a few connections (graphile-worker held one per slot, 16 of them, before).
    const server = postgres(adminUrl("postgres"), { max: 1, onnotice: () => {} });
    try {
      const [row] = await server`select count(*)::int as n from pg_stat_activity where datname = ${database.name}`;
      expect(row?.n).toBeLessThanOrEqual(10);
    } finally {
      await server.end();
    }

    const key = readFileSync(keyFile(), "utf8").trim();
    expect(await credits(key)).toBe(200);

    const listed = await svc(["tenant", "list", "--json"], { env: shellEnv(), checkout, cwd: outside });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toMatch(/database postgres:\/\/.*\(npm start's, with npm start's settings from .*local-settings\.json\)/);
    const tenants = JSON.parse(listed.stdout) as { tenant_id: string; name: string }[];
    expect(tenants.map((t) => t.name)).toEqual(["development"]);

    const made = await svc(["key", "create", tenants[0]!.tenant_id, "--areas", "tasks", "--json"], { env: shellEnv(), checkout, cwd: outside });
    expect(made.code, made.stderr).toBe(0);
    const limited = JSON.parse(made.stdout);
    expect(limited.areas).toEqual(["tasks"]);
    // The running API knows the key, and the key knows its areas.
    expect(await credits(limited.api_key)).toBe(403);

    const elsewhere = await svc(["tenant", "list", "--json"], { env: shellEnv({ DATABASE_URL: other.url }), checkout, cwd: outside });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.stderr).toContain("(from DATABASE_URL)");
    expect(JSON.parse(elsewhere.stdout)).toEqual([]);

    // A terminal's Ctrl-C reaches the whole process group once: every child stops once, in order.
    stack.interrupt();
    const exit = await stack.exited;
    const output = stack.output();
    expect(exit.code, output).toBe(0);
    expect(output).not.toContain("second termination signal");
    const at = (line: string) => {
      const index = output.indexOf(line);
      expect(index, `${line} in:\n${output}`).toBeGreaterThan(-1);
      return index;
    };
    const servers = Math.max(at("rest stopped (0)"), at("mcp stopped (0)"));
    expect(at("stopping rest and mcp")).toBeLessThan(Math.min(at("rest stopped (0)"), at("mcp stopped (0)")));
    expect(servers).toBeLessThan(at("stopping worker"));
    expect(at("worker stopped (0)")).toBeLessThan(at("stopping emulator"));
    expect(at("stopping emulator")).toBeLessThan(at("emulator stopped"));
  }, 300_000);

  it("a start that finds tenants but no key file prints the command that makes one, and that command works", async () => {
    rmSync(keyFile());
    ports = await stackPorts();
    const stack = start();
    await stack.waitFor("service ready");
    const command = /npx svc (key create \S+ --name development --save \S+)/.exec(stack.output())?.[1];
    expect(command, stack.output()).toBeDefined();
    // As printed, from the checkout (where npm start runs).
    const made = await svc(command!.split(" "), { env: shellEnv(), checkout });
    expect(made.code, made.stderr).toBe(0);
    const key = readFileSync(keyFile(), "utf8").trim();
    expect(made.stdout).toContain(key);
    expect(await credits(key)).toBe(200);
    stack.interrupt();
    expect((await stack.exited).code).toBe(0);
  }, 300_000);
});
