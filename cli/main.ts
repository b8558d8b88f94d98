import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArguments, UsageError, type Parsed } from "./args.js";

// `svc`: the operator CLI. Arguments and help are settled before anything heavy is loaded (`svc --help` reads no
// database and imports no core); each command then says on stderr which database it acts on.
const argv = process.argv.slice(2);
const wantsJson = argv.includes("--json");

function fail(message: string, code: number, hint?: string): number {
  if (wantsJson) console.log(JSON.stringify({ error: message }));
  console.error(`svc: ${message}${hint ? `\n(\`${hint}\` shows the usage)` : ""}`);
  return code;
}

async function run(parsed: Extract<Parsed, { kind: "run" }>): Promise<number> {
  const name = `${parsed.spec.noun}${parsed.spec.verb ? ` ${parsed.spec.verb}` : ""}`;
  const log = (line: string) => console.error(`svc: ${line}`);
  const print = (json: unknown, text: string) => console.log(parsed.options.json === true ? JSON.stringify(json, null, 2) : text);
  // Talks to vendors only: no database is opened.
  if (name === "vendors check") {
    const { runVendorsCheck, VendorsUsageError } = await import("./vendors-command.js");
    return runVendorsCheck(parsed.args.FAMILY, print).catch((error: unknown) => {
      if (error instanceof VendorsUsageError) return fail(error.message, 2, "svc vendors check --help");
      throw error;
    });
  }
  if (name === "mcp") (await import("./mcp-command.js")).reserveStdoutForProtocol();
  const { openCliDatabase } = await import("./database.js");
  const database = await openCliDatabase({ createDatabase: parsed.options["create-database"] === true, log });
  log(`database ${database.description}`);
  try {
    const [{ createCore, loadConfig, migrateDatabase }, { checkMigrations }, { DATA_DIR, localCallbackSecretKey, localSecret }, { localSigningKey }, { HANDLERS }] =
      await Promise.all([
        import("../core/index.js"),
        import("../core/ops/migrations-check.js"),
        import("../scripts/local-env.js"),
        import("../scripts/local-oauth-key.js"),
        import("./handlers.js"),
      ]);
    const env = database.env;
    const config = loadConfig({
      ...env,
      DATABASE_URL: database.url,
      ARTIFACT_URL_SECRET: env.ARTIFACT_URL_SECRET ?? (await localSecret()),
      CALLBACK_SECRET_ENCRYPTION_KEY: env.CALLBACK_SECRET_ENCRYPTION_KEY ?? (await localCallbackSecretKey()),
      // Only the MCP commands need the local signing key; `svc mcp` stores uploads where `npm start` serves them.
      ...(name === "token" || name === "mcp"
        ? {
            OAUTH_SIGNING_KEY: env.OAUTH_SIGNING_KEY ?? (await localSigningKey()),
            ARTIFACT_DIR: env.ARTIFACT_DIR ?? path.join(DATA_DIR, "artifacts"),
          }
        : {}),
    });
    const core = createCore(config, { dbPoolSize: 2 });
    try {
      // Two small reads when the database is current (as npm start leaves it), instead of the migrators' work.
      if (!(await checkMigrations(core.db)).current) await migrateDatabase(config.databaseUrl);
      const handler = HANDLERS[name];
      if (!handler) throw new Error(`no handler for ${name}`);
      return await handler({
        core,
        args: parsed.args,
        options: parsed.options,
        print,
      });
    } finally {
      await core.close();
    }
  } finally {
    await database.stop?.();
  }
}

async function main(): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parseArguments(argv);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message, 2, error.helpCommand);
    throw error;
  }
  if (parsed.kind === "version") {
    const { PROJECT_ROOT } = await import("../scripts/local-env.js");
    const manifest = JSON.parse(await readFile(path.join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string };
    console.log(manifest.version);
    return 0;
  }
  if (parsed.kind === "help") {
    (parsed.exitCode === 0 ? console.log : console.error)(parsed.text);
    return parsed.exitCode;
  }
  try {
    return await run(parsed);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error), 1);
  }
}

// Explicit: a library's exit hook must not decide the status.
process.exit(await main());
