import { chmodSync, existsSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { svc } from "../cli/svc-process.js";
import { freePort, makeCheckout, shellEnv, stackPorts, startStack, type Stack } from "./checkout.js";

// The embedded Postgres of a checkout without DATABASE_URL: created only when asked, found again afterwards, and,
// as root, with a database made in the checkout when its user could reach it and behind a directory of mode 700
// since, refused in one sentence naming the directory and the ways out, by `npm start` (before its build) and by
// `svc` alike. (A checkout it never could reach works: test/start/root-home.test.ts.)
const asRoot = process.getuid?.() === 0;
const made: string[] = [];
const stacks: Stack[] = [];
afterAll(async () => {
  // A stack a failed test left running still holds its embedded server's files.
  for (const stack of stacks) {
    stack.interrupt();
    await stack.exited;
  }
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
}, 60_000);

function checkout(mode: number): string {
  const dir = makeCheckout();
  chmodSync(dir, mode);
  made.push(dir);
  return dir;
}

describe("the embedded database", () => {
  it("is created by --create-database only, found by later commands and by npm start, which stops it last", async () => {
    const dir = checkout(0o755);
    const env = shellEnv(await stackPorts());
    const created = await svc(["tenant", "create", "--name", "local", "--create-database", "--json"], { env, checkout: dir, cwd: tmpdir(), timeoutMs: 180_000 });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain("creating the embedded Postgres");
    expect(existsSync(path.join(dir, ".data", "postgres", "PG_VERSION"))).toBe(true);
    const listed = await svc(["tenant", "list", "--json"], { env, checkout: dir, cwd: tmpdir(), timeoutMs: 120_000 });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toMatch(/the embedded database in .*postgres, started for this command and stopped after it/);
    expect(JSON.parse(listed.stdout).map((t: { name: string }) => t.name)).toEqual(["local"]);

    const stack = startStack(dir, env);
    stacks.push(stack);
    await stack.waitFor("service ready");
    // A database with tenants already: no development tenant, and a word on making a key.
    expect(stack.output()).toContain("key create");
    const during = await svc(["tenant", "list"], { env, checkout: dir, cwd: tmpdir() });
    expect(during.code, during.stderr).toBe(0);
    expect(during.stderr).toMatch(/npm start's embedded database in .*postgres\)/);
    stack.interrupt();
    expect((await stack.exited).code, stack.output()).toBe(0);
    const output = stack.output();
    expect(output.indexOf("emulator stopped")).toBeGreaterThan(output.indexOf("worker stopped"));
    expect(output.indexOf("stopping the embedded Postgres")).toBeGreaterThan(output.indexOf("emulator stopped"));
    expect(output).toContain("database stopped");
  }, 400_000);

  it.runIf(asRoot)("as root, a database its user can no longer reach is refused in one sentence, by npm start before its build and by svc", async () => {
    // Made when the checkout could be reached, then its parent closed (mode 700): moving a database is not ours.
    const home = checkout(0o755);
    const dir = makeCheckout(home);
    await mkdir(path.join(dir, ".data", "postgres"), { recursive: true });
    await writeFile(path.join(dir, ".data", "postgres", "PG_VERSION"), "18\n");
    chmodSync(home, 0o700);
    const env = shellEnv({ EMBEDDED_PG_PORT: String(await freePort()) });
    const sentence = new RegExp(
      `cannot enter ${home.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(mode 700\\) to reach the database in .*, made when it could: let every user enter ${home.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(chmod o\\+x\\), or set DATABASE_URL to a Postgres server of your own`,
    );

    const cli = await svc(["tenant", "list"], { env, checkout: dir, cwd: tmpdir() });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(sentence);

    // Without a build stamp the build would run (half a minute and more): the refusal comes first.
    rmSync(path.join(dir, "dist", ".build-stamp"));
    const stack = startStack(dir, env, ["npm", "start"]);
    stacks.push(stack);
    const exit = await stack.exited;
    expect(exit.code, stack.output()).toBe(1);
    expect(stack.output()).toMatch(sentence);
    expect(stack.output()).not.toMatch(/EACCES|\n\s+at /);
    expect(existsSync(path.join(dir, "dist", ".build-stamp"))).toBe(false);
  }, 300_000);
});
