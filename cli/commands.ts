import { AREAS } from "../core/auth/areas.js";
import { SCOPES } from "../core/oauth/scopes.js";

export const spendLimitHelp = "CREDITS/day or CREDITS/month (UTC periods), e.g. 50/day; none removes the limit";

// Every `svc` command: its arguments, options and help text. Pure data with light imports, so `svc --help` and
// argument errors answer without loading the service's core.
export interface OptionSpec {
  // Placeholder of the option's value; an option without one is a switch.
  value?: string;
  help: string;
  required?: boolean;
}

export interface CommandSpec {
  noun: string;
  verb: string | null;
  positionals: { name: string; optional?: boolean }[];
  options: Record<string, OptionSpec>;
  summary: string;
  details?: string;
}

const json: Record<string, OptionSpec> = { json: { help: "machine-readable output (JSON on stdout)" } };
const creditsHelp = "credits: a decimal with up to 6 places, e.g. 25.5";

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  "create-database": { help: "create an embedded database in .data/postgres when no database is found" },
  help: { help: "this help (also -h)" },
};

export const COMMANDS: CommandSpec[] = [
  {
    noun: "tenant",
    verb: "create",
    positionals: [],
    options: { name: { value: "NAME", help: "the tenant's name", required: true }, credits: { value: "N", help: `initial ${creditsHelp}` }, ...json },
    summary: "create a tenant (and grant it N credits)",
  },
  { noun: "tenant", verb: "list", positionals: [], options: json, summary: "list tenants" },
  {
    noun: "tenant",
    verb: "show",
    positionals: [{ name: "TENANT_ID" }],
    options: json,
    summary: "a tenant's status, balance, keys and rate limits",
  },
  { noun: "tenant", verb: "disable", positionals: [{ name: "TENANT_ID" }], options: json, summary: "suspend a tenant (its keys answer 403)" },
  { noun: "tenant", verb: "enable", positionals: [{ name: "TENANT_ID" }], options: json, summary: "restore a suspended tenant" },
  {
    noun: "tenant",
    verb: "limits",
    positionals: [{ name: "TENANT_ID" }],
    options: {
      "per-key": { value: "N|default", help: "requests per window for each of the tenant's credentials" },
      "per-tenant": { value: "N|default", help: "requests per window for the tenant as a whole" },
      "upload-max-bytes": { value: "N|default", help: "bytes of uploaded assets the tenant may keep (0 forbids uploads)" },
      "upload-max-count": { value: "N|default", help: "number of uploaded assets the tenant may keep" },
      ...json,
    },
    summary: "show or set a tenant's rate limits (requests per window) and upload quota",
  },
  {
    noun: "tenant",
    verb: "retention",
    positionals: [{ name: "TENANT_ID" }, { name: "DAYS" }],
    options: json,
    summary: "set the days the tenant's artifacts are kept; default restores ARTIFACT_RETENTION_DAYS",
  },
  {
    noun: "tenant",
    verb: "spend-limit",
    positionals: [{ name: "TENANT_ID" }, { name: "LIMIT" }],
    options: json,
    summary: `set the credits the whole tenant may hold per day or month: ${spendLimitHelp}`,
  },
  {
    noun: "key",
    verb: "create",
    positionals: [{ name: "TENANT_ID" }],
    options: {
      name: { value: "NAME", help: "a label for the key" },
      areas: { value: "AREA,…", help: `limit the key to these areas (default: every area): ${AREAS.join(", ")}` },
      save: { value: "FILE", help: "also write the key to FILE (mode 0600; refused if FILE exists)" },
      "spend-limit": { value: "CREDITS/PERIOD", help: `credits the key may hold per period: ${spendLimitHelp}` },
      ...json,
    },
    summary: "create an API key (shown once)",
  },
  {
    noun: "key",
    verb: "list",
    positionals: [{ name: "TENANT_ID", optional: true }],
    options: json,
    summary: "list API keys (of one tenant, or all): id, prefix, areas, status",
  },
  {
    noun: "key",
    verb: "spend-limit",
    positionals: [{ name: "KEY_ID" }, { name: "LIMIT" }],
    options: json,
    summary: `set the credits one key may hold per day or month: ${spendLimitHelp}`,
  },
  { noun: "key", verb: "revoke", positionals: [{ name: "KEY_ID" }], options: json, summary: "revoke an API key" },
  {
    noun: "credits",
    verb: "grant",
    positionals: [{ name: "TENANT_ID" }, { name: "AMOUNT" }],
    options: { note: { value: "TEXT", help: "the ledger line's note" }, ...json },
    summary: `add credits (${creditsHelp})`,
  },
  {
    noun: "credits",
    verb: "show",
    positionals: [{ name: "TENANT_ID" }],
    options: { limit: { value: "N", help: "ledger lines to show, newest first (default 10, at most 50)" }, ...json },
    summary: "a tenant's balance and its recent ledger lines",
  },
  {
    noun: "token",
    verb: null,
    positionals: [{ name: "TENANT_ID" }],
    options: {
      scopes: { value: "SCOPE,…", help: `the token's scopes (default: all): ${SCOPES.join(", ")}` },
      ttl: { value: "SECONDS", help: "lifetime (default 3600)" },
      ...json,
    },
    summary: "mint a development access token for the MCP server",
  },
  {
    noun: "oauth",
    verb: "clients list",
    positionals: [{ name: "TENANT_ID" }],
    options: json,
    summary: "the applications holding a grant of the tenant (signed in through the built-in authorization server)",
  },
  {
    noun: "oauth",
    verb: "clients revoke",
    positionals: [{ name: "TENANT_ID" }, { name: "CLIENT_ID" }],
    options: json,
    summary: "end every grant the tenant gave an application, and its tokens at once",
  },
  {
    noun: "oauth",
    verb: "grants list",
    positionals: [{ name: "TENANT_ID" }],
    options: json,
    summary: "the tenant's grants: application, API key signed in with, scopes, dates",
  },
  {
    noun: "oauth",
    verb: "grants revoke",
    positionals: [{ name: "GRANT_ID" }],
    options: json,
    summary: "end a grant, and its tokens at once",
  },
  {
    noun: "model",
    verb: "list",
    positionals: [],
    options: json,
    summary: "every catalog model: live, lifecycle (active, deprecated, retired) and retirement dates",
  },
  {
    noun: "model",
    verb: "retire",
    positionals: [{ name: "MODEL" }],
    options: {
      on: { value: "DATE", help: "when requests naming it start being refused: 2026-12-15 (00:00 UTC) or an ISO date-time with offset" },
      "deprecated-from": { value: "DATE", help: "when it starts being discouraged (default: now)" },
      replacement: { value: "MODEL", help: "the model callers are pointed to instead" },
      clear: { help: "no retirement for the model (also overrides MODEL_RETIREMENTS)" },
      ...json,
    },
    summary: "set or clear a model's retirement, for every process from its next request",
    details: "Overrides MODEL_RETIREMENTS for that model. Tasks already admitted run or fail as the vendor answers.",
  },
  {
    noun: "running-limit",
    verb: "show",
    positionals: [],
    options: json,
    summary: "the running limits and weights set, with what each subject runs, holds and has waiting now",
  },
  {
    noun: "running-limit",
    verb: "set",
    positionals: [],
    options: {
      tenant: { value: "TENANT_ID", help: "limit or weigh one tenant" },
      key: { value: "KEY_ID", help: "limit one API key" },
      family: { value: "FAMILY", help: "limit one vendor family (vendorA … vendorG), e.g. to its account's concurrency" },
      max: { value: "N", help: "at most N of its tasks running at once (at the vendor included); none removes it" },
      weight: { value: "W", help: "a tenant's share of the workers against others' (1 to 100, default 1); none removes it" },
      ...json,
    },
    summary: "cap the tasks running at once for a tenant, an API key or a vendor family, or weigh a tenant's share",
    details:
      "Tasks past a limit wait queued and start as room frees; none fails for it. Every worker reads the limits at each start, so a change holds at once, without a restart.",
  },
  {
    noun: "vendors",
    verb: "check",
    positionals: [{ name: "FAMILY", optional: true }],
    options: json,
    summary: "one cheap real call to each configured vendor family: reachable, authenticated, model ids known",
    details:
      "Reads VENDOR_<X>_BASE_URL, VENDOR_<X>_API_KEY and VENDOR_ID_MAP from the environment (no database); exits 1 when a family checked fails or none is configured.",
  },
  {
    noun: "mcp",
    verb: null,
    positionals: [],
    options: {
      "tool-names": {
        value: "STYLE",
        help: "dotted (svc.tasks.get, the default) or underscore (svc_tasks_get, for hosts that allow only [a-zA-Z0-9_-])",
      },
    },
    summary: "serve MCP on stdin/stdout as SVC_API_KEY (an API key or access token)",
    details: "What a desktop host runs. Only SVC_API_KEY is needed: the rest comes from npm start's .data/local-settings.json.",
  },
];

export const NOUNS = [...new Set(COMMANDS.map((c) => c.noun))];

export function commandName(spec: CommandSpec): string {
  return ["svc", spec.noun, spec.verb].filter((part) => part !== null).join(" ");
}

export function usageLine(spec: CommandSpec): string {
  const positionals = spec.positionals.map((p) => (p.optional ? `[${p.name}]` : p.name));
  const options = Object.entries(spec.options).map(([name, option]) => {
    const text = option.value ? `--${name} ${option.value}` : `--${name}`;
    return option.required ? text : `[${text}]`;
  });
  return [commandName(spec), ...positionals, ...options].join(" ");
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  return Object.entries(options).map(([name, option]) => `  ${`--${name}${option.value ? ` ${option.value}` : ""}`.padEnd(26)} ${option.help}`);
}

const DATABASE_NOTE = `Database: DATABASE_URL, else the one \`npm start\` uses (.data/local-settings.json), else the embedded one in
.data/postgres; each command says on stderr which it uses.`;

export function commandHelp(spec: CommandSpec): string {
  return [
    `usage: ${usageLine(spec)}`,
    "",
    `${spec.summary}.${spec.details ? ` ${spec.details}` : ""}`,
    "Square brackets mark what may be left out; type what is inside them, not the brackets.",
    "",
    "options:",
    ...optionLines({ ...spec.options, ...GLOBAL_OPTIONS }),
    "",
    DATABASE_NOTE,
  ].join("\n");
}

export function nounHelp(noun: string): string {
  const specs = COMMANDS.filter((c) => c.noun === noun);
  return [`usage: svc ${noun} <${specs.map((s) => s.verb).join("|")}> …`, "", ...specs.map((s) => `  ${usageLine(s)}\n      ${s.summary}`), "", `\`svc ${noun} <verb> --help\` for one command's options.`].join("\n");
}

export function generalHelp(): string {
  return [
    "svc — operate the media task service",
    "",
    ...COMMANDS.map((s) => `  ${usageLine(s)}\n      ${s.summary}`),
    "",
    "Square brackets mark what may be left out; type what is inside them, not the brackets.",
    "Every command takes --help; --json for machine-readable output; --create-database to create an embedded",
    "database when none is found. `svc --version` prints the version.",
    DATABASE_NOTE,
  ].join("\n");
}
