import { IDEMPOTENCY_KEY_MAX_CHARS, videoOptionFields } from "../../core/index.js";

// What tools/list advertises for a task-creating tool: the arguments an agent needs to write a first call, typed
// (client_request_id, the required fields and the main text), and the others by name; svc.models.list with the
// capability serves every argument typed, with its limits. The advertised object is open (no
// `additionalProperties: false`), so a host that validates arguments lets the other fields through; core
// validates every argument exactly and names the one it refuses in `param`.

type Node = Record<string, unknown>;

// Typed beside the required fields, when the capability has it: the text that says what to make.
const MAIN_OPTIONAL_FIELDS = new Set(["prompt", "input"]);
// SPEC.md's common create fields: the same on every create tool, named once in the server instructions.
const COMMON_CREATE_FIELDS = new Set(["metadata", "callback_url", "callback_signing_key_id"]);
// Fields several tools share, named as a group: spelled out by the first tool (in the table's order) that takes
// them all, and named by the group on the others.
const OPTION_GROUPS = [{ name: "the video options", fields: Object.keys(videoOptionFields) }];

export const CLIENT_REQUEST_ID = {
  type: "string",
  maxLength: IDEMPOTENCY_KEY_MAX_CHARS,
  description: "Fresh UUID per new work; resend to retry safely (same task, one charge).",
};
// Its use and bounds are said in the server instructions and by a refusal.
const COMPACT_CLIENT_REQUEST_ID = { type: "string", description: "Idempotency key (a UUID)." };
// Where `model` is required (understanding, text-to-music); the ids are listed by svc.models.list.
const MODEL_DESCRIPTION = "`auto` or a model id; svc.models.list lists them.";

// The example value a typed property carries, from the capability's example: a value of a vocabulary (no spaces,
// not only letters: en_female_aria, 16:9), which an agent cannot guess from the type, unlike a text, a name or a
// media input the schema already shapes. An enum lists its values; `model` says `auto` in its description.
function vocabularyExample(name: string, shape: Node, value: unknown): unknown[] | null {
  if (name === "model" || shape.enum !== undefined || shape.const !== undefined) return null;
  return typeof value === "string" && /^\S*[^\sA-Za-z]\S*$/.test(value) ? [value] : null;
}

// How the description names an argument it does not type: an object with a default is shown by its default, the
// shape and a value a first call can send as is (canvas is an object, not "16:9").
function namedArgument(name: string, property: Node): string {
  const fallback = property.default;
  if (fallback === null || typeof fallback !== "object" || Array.isArray(fallback)) return name;
  return `${name} (e.g. ${JSON.stringify(fallback)})`;
}

// A property's shape without its limits, defaults and formats: types, enums and constants, the fields of objects
// (all optional there) and the items of arrays. Of alternatives, an object one is kept (a media input or a
// data-URI string: the object), otherwise their types.
function shapeOf(node: Node): Node {
  const alternatives = (node.anyOf ?? node.oneOf) as Node[] | undefined;
  if (Array.isArray(alternatives)) {
    const object = alternatives.find((a) => a.type === "object");
    if (object) return shapeOf(object);
    const types = [...new Set(alternatives.flatMap((a) => (Array.isArray(a.type) ? a.type : a.type ? [a.type] : [])))];
    return types.length === 1 ? { type: types[0] } : { type: types };
  }
  const shape: Node = {};
  for (const key of ["type", "enum", "const"]) if (node[key] !== undefined) shape[key] = node[key];
  if (node.items && typeof node.items === "object") shape.items = shapeOf(node.items as Node);
  if (node.properties && typeof node.properties === "object") {
    shape.properties = Object.fromEntries(Object.entries(node.properties as Record<string, Node>).map(([name, child]) => [name, shapeOf(child)]));
  }
  return shape;
}

export interface CompactTool {
  inputSchema: Node;
  // The sentence naming the arguments tools/list does not type, for the tool's description.
  otherArguments: string;
}

// Compacts each tool's complete input schema (client_request_id included, as svc.models.list serves it) with its
// capability's example body, in the table's order.
export function compactTools(tools: readonly { fullSchema: Node; example: Record<string, unknown> }[]): CompactTool[] {
  const spelledOut = new Set<string>();
  return tools.map(({ fullSchema: full, example }) => {
    const properties = full.properties as Record<string, Node>;
    const required = (full.required as string[] | undefined) ?? [];
    const typed = Object.keys(properties).filter((name) => required.includes(name) || MAIN_OPTIONAL_FIELDS.has(name));
    const compact: Record<string, Node> = {};
    for (const name of typed) {
      const property = properties[name] as Node;
      const description = name === "client_request_id" ? null : name === "model" ? MODEL_DESCRIPTION : property.description;
      const shape = shapeOf(property);
      const examples = vocabularyExample(name, shape, example[name]);
      compact[name] =
        name === "client_request_id" ? COMPACT_CLIENT_REQUEST_ID : { ...shape, ...(description ? { description } : {}), ...(examples ? { examples } : {}) };
    }
    let others = Object.keys(properties).filter((name) => !typed.includes(name) && !COMMON_CREATE_FIELDS.has(name));
    const groups: string[] = [];
    for (const group of OPTION_GROUPS) {
      if (!group.fields.every((field) => field in properties)) continue;
      others = others.filter((name) => !group.fields.includes(name));
      groups.push(spelledOut.has(group.name) ? group.name : `${group.name} (${group.fields.join(", ")})`);
      spelledOut.add(group.name);
    }
    const named = [...others.map((name) => namedArgument(name, properties[name] as Node)), ...groups];
    const otherArguments = named.length === 0 ? "" : ` Also takes ${named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`}.`;
    return { inputSchema: { type: "object", properties: compact, required }, otherArguments };
  });
}
