import type { Scope } from "./scopes.js";

// SPEC.md's tool-only refusal: the grant lacks scopes a tool needs. It is not one of the 45 public REST codes,
// so it is its own error rather than a ServiceError; the MCP surface renders it in the same error vocabulary.
export class InsufficientScopeError extends Error {
  readonly missing: readonly Scope[];
  readonly required: readonly Scope[];

  constructor(missing: readonly Scope[], required: readonly Scope[]) {
    super(`This credential lacks the scope${missing.length > 1 ? "s" : ""} ${missing.join(", ")}; re-authorize with them to use this tool.`);
    this.name = "InsufficientScopeError";
    this.missing = missing;
    this.required = required;
  }

  toBody(requestId: string) {
    return {
      code: "insufficient_scope" as const,
      type: "permission_error" as const,
      message: this.message,
      retryable: false,
      missing_scopes: [...this.missing],
      details: {
        required_scopes: [...this.required],
        recovery: { action: "reauthorize", requires_input_change: false },
      },
      request_id: requestId,
    };
  }
}
