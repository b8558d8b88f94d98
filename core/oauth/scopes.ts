import type { Area } from "../auth/areas.js";

// The OAuth scope vocabulary of the MCP surface, and the one table that ties each scope to an API-key area: an
// API key limited to some areas holds exactly the scopes of those areas, so both credentials pass the same check.
export const SCOPE_TABLE = [
  { scope: "tasks:read", area: "tasks", allows: "read your tasks (svc.tasks.get, svc.tasks.list)" },
  { scope: "tasks:write", area: "tasks", allows: "cancel your tasks (svc.tasks.cancel)" },
  { scope: "catalog:read", area: "catalog", allows: "read the model catalog (svc.models.list)" },
  { scope: "credits:read", area: "credits", allows: "read your credit balance (svc.credits.get)" },
  { scope: "voices:read", area: "voices", allows: "list preset and cloned voices (svc.voices.list)" },
  { scope: "voices:write", area: "voices", allows: "clone voices (svc.voices.clone)" },
  { scope: "speech:write", area: "speech", allows: "synthesize speech (svc.speech.synthesize)" },
  { scope: "music:write", area: "music", allows: "generate music" },
  { scope: "images:write", area: "images", allows: "generate, transform, edit and analyze images" },
  { scope: "videos:write", area: "videos", allows: "generate, edit, extend and analyze videos, enhance video prompts" },
  { scope: "assets:write", area: "assets", allows: "upload media (svc.assets.upload)" },
] as const satisfies readonly { scope: string; area: Area; allows: string }[];

export type Scope = (typeof SCOPE_TABLE)[number]["scope"];
export type ScopeAccess = "read" | "write";

export const SCOPES: readonly Scope[] = SCOPE_TABLE.map((row) => row.scope);

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function scopeFor(area: Area, access: ScopeAccess): Scope {
  const scope = `${area}:${access}`;
  if (!isScope(scope)) throw new Error(`no scope ${scope} in the vocabulary`);
  return scope;
}

// A key without an area list may use every area, so it holds every scope.
export function scopesOfAreas(areas: readonly Area[] | null): Scope[] {
  return SCOPE_TABLE.filter((row) => areas === null || areas.includes(row.area)).map((row) => row.scope);
}

// Scopes of a token's `scope` claim (RFC 9068: space-separated). Unknown scopes are kept out: they grant nothing here.
export function parseScopeClaim(claim: unknown): Scope[] {
  if (typeof claim !== "string") return [];
  return [...new Set(claim.split(/\s+/).filter(isScope))];
}

export function missingScopes(granted: readonly string[], required: readonly Scope[]): Scope[] {
  return required.filter((scope) => !granted.includes(scope));
}
