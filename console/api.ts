import { ServiceError, unenvelopedFailure } from "../client/src/errors.js";
import { operationRoute } from "../client/src/operation-route.js";
import type { ErrorObject } from "./types";
import { storedKey } from "./session-key";

// Every call the console makes: an operation of this origin's public API, named by its id as the client package
// names it (operationRoute, from the operations table's generated routes), or a capability's create; the session's
// key as a bearer token. Paths are relative, so nothing is ever sent to another origin. A refusal is the client
// package's ServiceError, the service's error object as every client of it reads it (an answer without the
// envelope gets the code its status stands for, as the client gives it).

export { operationRoute, ServiceError };

export interface ApiRoute {
  method: "GET" | "POST" | "DELETE";
  path: string;
}

// A task-creating call, at its capability's path (from its catalog card or the generated CAPABILITY_PATHS).
export const createRoute = (path: string): ApiRoute => ({ method: "POST", path });

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export function authHeaders(): Record<string, string> {
  const key = storedKey();
  return key ? { Authorization: `Bearer ${key}` } : {};
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

// The refusal an answer carries.
export function refusalOf(response: Response, parsed: unknown): ServiceError {
  const error = (parsed as { error?: ErrorObject } | null)?.error;
  return error ? new ServiceError(error, response.status) : unenvelopedFailure(response.status, response.headers.get("x-request-id") ?? undefined, undefined);
}

export async function api<T>(route: ApiRoute, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...authHeaders() };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
  const response = await fetch(`${route.path}${query(options.query ?? {})}`, {
    method: route.method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const parsed = parseJson(await response.text());
  if (!response.ok) throw refusalOf(response, parsed);
  return parsed as T;
}

// A query string from the defined values only.
export function query(values: Record<string, string | number | undefined>): string {
  const entries = Object.entries(values).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== "");
  return entries.length === 0 ? "" : `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}`;
}

// The problems a refusal points at, by JSON Pointer: every entry of an invalid_request's details.errors, or the
// error's own param.
export function fieldErrors(error: ServiceError): Map<string, string> {
  const fields = new Map<string, string>();
  const listed = error.details?.errors;
  if (Array.isArray(listed)) {
    for (const entry of listed as { param?: unknown; reason?: unknown }[]) {
      if (typeof entry.param === "string" && typeof entry.reason === "string" && !fields.has(entry.param)) fields.set(entry.param, entry.reason);
    }
  }
  if (error.param !== undefined && !fields.has(error.param)) fields.set(error.param, error.message);
  return fields;
}
