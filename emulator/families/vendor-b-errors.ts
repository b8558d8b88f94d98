// vendorB's refusal body, shared by its video tasks and its chat completions: {error: {code, message, param, type}}.
export function vendorBError(code: string, message: string, param?: string) {
  return { error: { code, message, ...(param ? { param } : {}), type: code.split(".")[0] } };
}
