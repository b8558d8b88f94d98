import { COMMANDS, commandHelp, commandName, generalHelp, GLOBAL_OPTIONS, nounHelp, NOUNS, type CommandSpec } from "./commands.js";

// Strict parsing of `svc` arguments: what a command does not know is refused with a message naming it, never
// ignored (a pasted `[--areas` once made an unrestricted key).
export class UsageError extends Error {
  constructor(
    message: string,
    readonly helpCommand: string,
  ) {
    super(message);
  }
}

export type Parsed =
  | { kind: "help"; text: string; exitCode: 0 | 2 }
  | { kind: "version" }
  | { kind: "run"; spec: CommandSpec; args: Record<string, string | undefined>; options: Record<string, string | true> };

interface Token {
  option?: { name: string; value?: string };
  positional?: string;
}

// A token that starts with `-` and a digit is a value (a negative amount reaches the amount's own check).
function tokenize(argv: string[]): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      tokens.push(...argv.slice(i + 1).map((positional) => ({ positional })));
      break;
    }
    if (arg === "-h") tokens.push({ option: { name: "help" } });
    else if (arg.startsWith("--") && arg.length > 2) {
      const eq = arg.indexOf("=");
      tokens.push({ option: eq === -1 ? { name: arg.slice(2) } : { name: arg.slice(2, eq), value: arg.slice(eq + 1) } });
    } else if (arg.startsWith("-") && arg.length > 1 && !/^-\d/.test(arg)) {
      tokens.push({ option: { name: arg.slice(1) } });
    } else tokens.push({ positional: arg });
  }
  return tokens;
}

function bracketHint(arg: string): string {
  return /^\[|\]$/.test(arg) ? " (square brackets in a usage line mark an optional part: type what is inside, without them)" : "";
}

export function parseArguments(argv: string[]): Parsed {
  const tokens = tokenize(argv);
  const wantsHelp = tokens.some((t) => t.option?.name === "help");
  const positionals = tokens.filter((t) => t.positional !== undefined).map((t) => t.positional as string);
  const [noun, maybeVerb] = positionals;
  // `svc --version` (alone, as other tools take it): the package's version, exit 0.
  if (noun === undefined && !wantsHelp && tokens.length === 1 && tokens[0]?.option?.name === "version" && tokens[0].option.value === undefined) return { kind: "version" };
  if (noun === undefined) return { kind: "help", text: generalHelp(), exitCode: wantsHelp ? 0 : 2 };
  if (!NOUNS.includes(noun)) {
    if (wantsHelp) return { kind: "help", text: generalHelp(), exitCode: 0 };
    throw new UsageError(`unknown command "${noun}"${bracketHint(noun)}; the commands are ${NOUNS.join(", ")}`, "svc --help");
  }
  const forNoun = COMMANDS.filter((c) => c.noun === noun);
  const takesVerb = forNoun[0]?.verb !== null;
  let spec: CommandSpec | undefined = forNoun[0];
  if (takesVerb) {
    // A verb may be words of its own (`svc oauth grants list`): each must follow the noun in order.
    spec = forNoun.find((c) => (c.verb ?? "").split(" ").every((word, i) => positionals[1 + i] === word));
    if (!spec) {
      if (wantsHelp) return { kind: "help", text: nounHelp(noun), exitCode: 0 };
      const verbs = forNoun.map((c) => c.verb).join(", ");
      const problem = maybeVerb === undefined ? `"svc ${noun}" needs one of: ${verbs}` : `unknown command "svc ${noun} ${maybeVerb}"${bracketHint(maybeVerb)}; "svc ${noun}" takes ${verbs}`;
      throw new UsageError(problem, `svc ${noun} --help`);
    }
  }
  const command = spec as CommandSpec;
  if (wantsHelp) return { kind: "help", text: commandHelp(command), exitCode: 0 };
  return { kind: "run", spec: command, ...bindArguments(command, tokens, 1 + (command.verb?.split(" ").length ?? 0)) };
}

// `leading`: the positional tokens that named the command.
function bindArguments(spec: CommandSpec, tokens: Token[], leading: number) {
  const name = commandName(spec);
  const help = `${name} --help`;
  const known = { ...spec.options, ...GLOBAL_OPTIONS };
  const options: Record<string, string | true> = {};
  const values: string[] = [];
  let skip = leading;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const option = token.option;
    if (!option) {
      if (skip > 0) skip--;
      else values.push(token.positional as string);
      continue;
    }
    const optionSpec = known[option.name];
    if (!optionSpec) {
      const list = Object.keys(spec.options).map((o) => `--${o}`);
      throw new UsageError(`unknown option "${option.name.length === 1 ? "-" : "--"}${option.name}" for "${name}"${list.length ? `; it takes ${list.join(", ")}` : ""}`, help);
    }
    if (options[option.name] !== undefined) throw new UsageError(`--${option.name} is given twice`, help);
    if (!optionSpec.value) {
      if (option.value !== undefined) throw new UsageError(`--${option.name} takes no value`, help);
      options[option.name] = true;
      continue;
    }
    let value = option.value;
    if (value === undefined) {
      const next = tokens[i + 1];
      if (next?.positional === undefined) throw new UsageError(`--${option.name} needs a value (${optionSpec.value})`, help);
      value = next.positional;
      i++;
    }
    options[option.name] = value;
  }
  for (const [optionName, optionSpec] of Object.entries(spec.options)) {
    if (optionSpec.required && options[optionName] === undefined) throw new UsageError(`--${optionName} is required`, help);
  }
  const args: Record<string, string | undefined> = {};
  for (const positional of spec.positionals) {
    const value = values.shift();
    if (value === undefined && !positional.optional) throw new UsageError(`${positional.name} is required: ${usageOf(spec)}`, help);
    args[positional.name] = value;
  }
  if (values.length > 0) {
    const extra = values[0] as string;
    throw new UsageError(`unexpected argument "${extra}"${bracketHint(extra)}: ${usageOf(spec)}`, help);
  }
  return { args, options };
}

function usageOf(spec: CommandSpec): string {
  return `${commandName(spec)} ${spec.positionals.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(" ")}`.trim();
}
