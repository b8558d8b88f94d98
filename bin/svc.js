#!/usr/bin/env node
// `npx svc …` and `node bin/svc.js mcp` (what a desktop host runs): the compiled CLI in this process. When dist/ is
// missing or older than the sources it is built first (once; tsc takes 10 s to a minute), so a fresh checkout or an edited
// one never runs stale code and no call pays for compiling TypeScript at run time.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, isStale, ROOT } from "./build.js";

const ENTRY = path.join("cli", "main.js");
if (isStale(ENTRY)) {
  process.stderr.write("svc: compiling the TypeScript into dist/ (once after each change)…\n");
  const status = build({ onlyIfStale: ENTRY });
  // tsc still emits when it finds type errors; run what it emitted, as `npm start` would, after saying so.
  if (status !== 0 && !existsSync(path.join(ROOT, "dist", ENTRY))) process.exit(1);
  if (status !== 0) process.stderr.write(`svc: the build reported errors (status ${status}); running what it emitted\n`);
}
await import(pathToFileURL(path.join(ROOT, "dist", ENTRY)).href);
