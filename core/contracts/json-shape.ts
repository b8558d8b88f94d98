import { failure, invalidRequest, type FieldFailure } from "../errors/index.js";

// The shape every JSON body and every set of MCP tool arguments must keep, checked before anything walks the value
// recursively or JSON.parse builds it: no request of the specification nests deeper than 6 levels, lists more than
// 1,000 items in one place or needs a key longer than 64 characters, so these bounds refuse only hostile input.
// Without them a 10 KB body nested 5,000 deep overflowed the stack (500), and a 30 MB one held the event loop.
export const JSON_MAX_DEPTH = 32;
export const JSON_MAX_ITEMS = 10_000;
export const JSON_MAX_KEY_LENGTH = 256;

const DEPTH_REASON = `is nested deeper than ${JSON_MAX_DEPTH} levels of arrays and objects`;
const ITEMS_REASON = `holds more than ${JSON_MAX_ITEMS} array items and object members in all`;
const KEY_REASON = `has a member name longer than ${JSON_MAX_KEY_LENGTH} characters`;

interface Level {
  isObject: boolean;
  index: number;
  // The raw JSON text of the member name being read in an object (quotes and escapes included).
  rawKey: string | null;
}

function memberName(raw: string): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}

function pathOf(levels: Level[]): (string | number)[] {
  return levels.map((level) => (level.isObject ? memberName(level.rawKey ?? '""') : level.index));
}

// The end (index of the closing quote) of the JSON string starting at `start`, or -1 when it never closes.
function stringEnd(text: string, start: number): number {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

// One linear pass over JSON text, before it is parsed: the first place it exceeds a bound, or null. It does not
// validate the syntax (JSON.parse does that next); on malformed text it stops or answers null.
export function jsonTextShapeFailure(text: string): FieldFailure | null {
  const levels: Level[] = [];
  let items = 0;
  let awaitingFirst = false;
  let awaitingKey = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 32 || code === 10 || code === 13 || code === 9) continue;
    const top = levels[levels.length - 1];
    if (awaitingFirst) {
      awaitingFirst = false;
      if (code !== 93 && code !== 125) items++;
    }
    if (code === 34) {
      const end = stringEnd(text, at);
      if (end < 0) return null;
      if (awaitingKey && top) {
        if (end - at - 1 > JSON_MAX_KEY_LENGTH && memberName(text.slice(at, end + 1)).length > JSON_MAX_KEY_LENGTH) {
          return failure(pathOf(levels.slice(0, -1)), KEY_REASON);
        }
        top.rawKey = text.slice(at, end + 1);
        awaitingKey = false;
      }
      at = end;
    } else if (code === 123 || code === 91) {
      if (levels.length >= JSON_MAX_DEPTH) return failure(pathOf(levels), DEPTH_REASON);
      levels.push({ isObject: code === 123, index: 0, rawKey: null });
      awaitingFirst = true;
      awaitingKey = code === 123;
    } else if (code === 125 || code === 93) {
      levels.pop();
      awaitingKey = false;
    } else if (code === 44 && top) {
      items++;
      top.index++;
      awaitingKey = top.isObject;
    }
    if (items > JSON_MAX_ITEMS) return failure([], ITEMS_REASON);
  }
  return null;
}

// The same bounds on a value already parsed (MCP tool arguments), walked without recursion.
export function jsonValueShapeFailure(value: unknown): FieldFailure | null {
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  let items = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: node, path } = next;
    if (node === null || typeof node !== "object") continue;
    if (path.length >= JSON_MAX_DEPTH) return failure(path, DEPTH_REASON);
    items += Array.isArray(node) ? node.length : Object.keys(node).length;
    if (items > JSON_MAX_ITEMS) return failure([], ITEMS_REASON);
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((item, i) => [i, item]) : Object.entries(node);
    for (const [key, item] of entries) {
      if (typeof key === "string" && key.length > JSON_MAX_KEY_LENGTH) return failure(path, KEY_REASON);
      pending.push({ value: item, path: [...path, key] });
    }
  }
  return null;
}

function shapeError(found: FieldFailure) {
  const where = found.param === "" ? "The JSON" : `The JSON at ${found.param}`;
  return invalidRequest([found], `${where} ${found.reason}; no request needs that.`);
}

// 422 invalid_request naming the bound, at the place it was exceeded.
export function refuseUnboundedJsonText(text: string): void {
  const found = jsonTextShapeFailure(text);
  if (found) throw shapeError(found);
}

export function refuseUnboundedJsonValue(value: unknown): void {
  const found = jsonValueShapeFailure(value);
  if (found) throw shapeError(found);
}
